import Foundation
import LedgerJSON
import LedgerDomain
import Postgres

/// The log's reads, each written once: on a pooled connection (`store.log`), or on the
/// caller's connection, inside its transaction (`LogReader(connection)`), where a reader
/// must see the log as of the transaction's snapshot (the projector, a replay, `verify`).
public struct LogReader: Sendable {
    private enum Source: Sendable {
        case connections(PostgresPool)
        case connection(PostgresConnection)
    }

    private let source: Source

    /// Reads on `connection`, in whatever transaction it is in.
    public init(_ connection: PostgresConnection) { source = .connection(connection) }

    /// Reads on a connection of `connections`, one per read.
    public init(connections: PostgresPool) { source = .connections(connections) }

    private func on<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        switch source {
        case .connections(let connections): return try connections.read(body)
        case .connection(let connection): return try body(connection)
        }
    }

    /// Read in binary (`RecordedEvent(row:)`): the id, the hashes and the times then cross
    /// as the bytes and integers they are, where text cost the server `uuid_out`, hex and
    /// numeric arithmetic per event and the reader as much again to parse it back; the
    /// texts (`data::text`, `metadata::text`) are the same bytes either way.
    static let eventColumns = """
        position, event_id, stream, stream_version, type, data::text, metadata::text,
        occurred_at, recorded_at, corrects_position, idempotency_key, prev_hash, hash
        """
    private var eventColumns: String { Self.eventColumns }

    /// Events after `position`, in position order. Because positions are gapless and
    /// commit-ordered, a reader that repeats this with the last position it saw never
    /// skips an event. Throws `ArchivedPositions` rather than skip positions that were
    /// archived: the next event is always `position + 1`, or none.
    public func read(after position: Int64, limit: Int) throws -> [RecordedEvent] {
        let events = try on { connection in
            try RecordedEvent.events(connection.query("SELECT \(eventColumns) FROM events WHERE position > $1 ORDER BY position LIMIT $2",
                                                      [position, limit], format: .binary))
        }
        if let first = events.first, first.position != position + 1 {
            throw ArchivedPositions(requested: position + 1, firstLive: first.position)
        }
        return events
    }

    /// The first position the database holds: 1, or the one after the archived positions
    /// (`ledger archive`); 1 for an empty log.
    public func firstLivePosition() throws -> Int64 {
        try on { try $0.query("SELECT coalesce(min(position), 1) FROM events")[0].requireInt64(0) }
    }

    /// The highest committed position (0 for an empty log).
    public func headPosition() throws -> Int64 {
        try on { try $0.query("SELECT coalesce(max(position), 0) FROM events")[0].requireInt64(0) }
    }

    /// The files of every archive act the log records, in position order, as paths in
    /// `directory` (where `ledger archive` wrote them, or a copy): what a rebuild reads
    /// before the live log. Each file is checked as it is read.
    public func archiveFiles(in directory: String) throws -> [String] {
        var seen = Set<String>()
        return try readStream(LogArchived.stream).flatMap { try $0.decode(LogArchived.self).files }
            .filter { seen.insert($0.name).inserted }
            .map { directory + "/" + $0.name }
    }

    /// A stream's version and the position of its last event, from `event_streams`; nil
    /// for a stream without events.
    public func streamHead(_ stream: String) throws -> (version: Int64, position: Int64)? {
        try on { connection in
            guard let row = try connection.query("SELECT version, position FROM event_streams WHERE stream = $1", [stream]).rows.first else {
                return nil
            }
            return (try row.requireInt64(0), try row.requireInt64(1))
        }
    }

    /// A stream's version: its last event's `stream_version`, 0 when it has none. Read
    /// from `event_streams`, which the insert trigger keeps: one entry, and right when the
    /// stream's first events are archived.
    public func streamVersion(_ stream: String) throws -> Int64 {
        try streamHead(stream)?.version ?? 0
    }

    /// Those of `streams` that have events (archived ones included), from `event_streams`.
    public func existingStreams(_ streams: [String]) throws -> Set<String> {
        guard !streams.isEmpty else { return [] }
        return try on { connection in
            Set(try connection.query("SELECT stream FROM event_streams WHERE stream = ANY($1::text[])",
                                     [PostgresTextArray(streams)]).rows.map { try $0.requireString(0) })
        }
    }

    /// The position of the event with `id`, archived or not.
    public func position(ofEventID id: UUID) throws -> Int64? {
        try on { try $0.query("SELECT position FROM event_ids WHERE event_id = $1::uuid", [id.uuidString]).rows.first?.int64(0) }
    }

    /// The positions of the corrections that name `position` (J3), in order: through the
    /// partial index on `corrects_position`.
    public func corrections(of position: Int64) throws -> [Int64] {
        try on { connection in
            try connection.query("SELECT position FROM events WHERE corrects_position = $1 ORDER BY position", [position])
                .rows.map { try $0.requireInt64(0) }
        }
    }

    /// A stream's events from `version` on, in version order, at most `limit`.
    public func readStream(_ stream: String, from version: Int64 = 1, limit: Int = 10_000) throws -> [RecordedEvent] {
        try on { connection in
            try RecordedEvent.events(connection.query("""
                SELECT \(eventColumns) FROM events WHERE stream = $1 AND stream_version >= $2
                ORDER BY stream_version LIMIT $3
                """, [stream, version, limit], format: .binary))
        }
    }

    /// The events of `streams` after `position`, in position order, at most `limit`: a
    /// subject's timeline. Each stream is read through its (stream, version) index, whose
    /// order is its events' position order, so the cost follows the page, not the log.
    public func read(streams: [String], after position: Int64, limit: Int) throws -> [RecordedEvent] {
        guard !streams.isEmpty else { return [] }
        return try on { connection in
            try RecordedEvent.events(connection.query("""
                SELECT \(eventColumns) FROM unnest($1::text[]) AS s(name) CROSS JOIN LATERAL (
                    SELECT * FROM events e WHERE e.stream = s.name AND e.position > $2 ORDER BY e.stream_version LIMIT $3
                ) events ORDER BY position LIMIT $3
                """, [PostgresTextArray(Array(Set(streams))), position, limit], format: .binary))
        }
    }

    /// The event at a position, if the log has it.
    public func event(at position: Int64) throws -> RecordedEvent? {
        try on { connection in
            try connection.query("SELECT \(eventColumns) FROM events WHERE position = $1", [position], format: .binary)
                .rows.first.map { try RecordedEvent(row: $0, after: nil) }
        }
    }

    /// The events at `positions` that the log has, in position order.
    public func events(at positions: [Int64]) throws -> [RecordedEvent] {
        guard !positions.isEmpty else { return [] }
        return try on { connection in
            try RecordedEvent.events(connection.query("SELECT \(eventColumns) FROM events WHERE position = ANY($1::bigint[]) ORDER BY position",
                                                      [PostgresTextArray(positions.map(String.init))], format: .binary))
        }
    }

    /// The events of the append that carried the append-level idempotency `key`: the
    /// event holding the key and those right after it from the same request (an append's
    /// events share their metadata and take consecutive positions). Empty when the key is
    /// not in the log.
    public func events(appendedUnder key: String) throws -> [RecordedEvent] {
        try on { conn in
            let first = try conn.query("""
                SELECT e.position, e.metadata->>'request_id' FROM event_keys k JOIN events e ON e.position = k.position
                WHERE k.idempotency_key = $1
                """, [key])
            guard first.rowCount == 1 else { return [] }
            let position = try first[0].requireInt64(0)
            let rows = try conn.query("""
                SELECT \(eventColumns) FROM events
                WHERE position >= $1 AND position < $2 AND metadata->>'request_id' IS NOT DISTINCT FROM $3
                ORDER BY position
                """, [position, position + Int64(PreparedAppend.maximumEvents), first[0].string(1)], format: .binary)
            var events: [RecordedEvent] = []
            for row in rows.rows {
                let event = try RecordedEvent(row: row, after: events.last)
                // Consecutive only: a later append of the same request is another append.
                if let last = events.last, event.position != last.position + 1 { break }
                events.append(event)
            }
            return events
        }
    }

    /// Which of `keys` the log holds (an append's key or an event's), each with the
    /// metadata of the event that carries it: a job that finds facts recorded already skips
    /// them without deciding each again, and knows which it recorded itself.
    public func recordedKeys(_ keys: [String]) throws -> [String: JSONValue] {
        guard !keys.isEmpty else { return [:] }
        return try on { connection in
            var found: [String: JSONValue] = [:]
            for row in try connection.query("""
                SELECT k.idempotency_key, e.metadata::text FROM event_keys k JOIN events e ON e.position = k.position
                WHERE k.idempotency_key = ANY($1::text[])
                """, [PostgresTextArray(Array(Set(keys)))]).rows {
                found[try row.requireString(0)] = (try? JSONValue.parse(Array(try row.requireString(1).utf8))) ?? .null
            }
            return found
        }
    }

    /// The events that carry event-level idempotency `keys` (a usage event's `usage:<id>`),
    /// in position order.
    public func events(withKeys keys: [String]) throws -> [RecordedEvent] {
        guard !keys.isEmpty else { return [] }
        return try on { connection in
            try RecordedEvent.events(connection.query("""
                SELECT \(eventColumns)
                FROM (SELECT position AS keyed FROM event_keys WHERE idempotency_key = ANY($1::text[])) k
                JOIN events ON events.position = k.keyed ORDER BY position
                """, [PostgresTextArray(Array(Set(keys)))], format: .binary))
        }
    }

    /// The events of `type` after `after` through `through`, in position order, at most
    /// `limit` (nil: all of them, for the rare types a partial index covers, such as
    /// set-asides). Cheap, whatever the range, for the types a partial index of the log
    /// covers (keys' `key.issued` and `key.revoked`, 0010; set-asides, 0003): the statement
    /// is planned with the type's value each time, so PostgreSQL reads that index alone (a
    /// prepared statement's generic plan read the whole log, once per projector batch).
    public func events(ofType type: String, after: Int64 = 0, through: Int64 = .max, limit: Int? = nil) throws -> [RecordedEvent] {
        guard through > after else { return [] }
        return try on { connection in
            try RecordedEvent.events(connection.queryPlannedWithValues("""
                SELECT \(eventColumns) FROM events WHERE type = $1 AND position > $2 AND position <= $3
                ORDER BY position LIMIT $4
                """, [type, after, through, limit.map(Int64.init)], format: .binary))
        }
    }
}

extension EventStore {
    /// The log's reads, each on a connection of the store's connections.
    public var log: LogReader { LogReader(connections: connections) }
}
