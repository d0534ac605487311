import Crypto
import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

/// The insert trigger's stream-version rule (migration 0007: one UPDATE and one INSERT of
/// `event_streams`, their rows counted), tried on many generated appends made by hand
/// under the append lock, each judged against the rule written out here: the versions an
/// append gives each stream, sorted, are the stream's version + 1, + 2, … with no gap and
/// no repeat. A valid append is taken and moves `event_streams`; any other is refused
/// with the version error and leaves `event_streams` as it was.
@Suite("The log's stream-version check, on generated appends", .bounded)
struct StreamVersionCheckTests {
    /// A small deterministic generator, so that a failing case can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let streams = ["sv-a", "sv-b", "sv-c", "sv-d", "sv-new-1", "sv-new-2", "sv-new-3"]

    /// The rule, on the versions an append gives each stream (any order).
    static func isValid(_ rows: [(stream: String, version: Int64)], current: [String: Int64]) -> Bool {
        Dictionary(grouping: rows, by: \.stream).allSatisfy { stream, rows in
            let sorted = rows.map(\.version).sorted()
            let first = (current[stream] ?? 0) + 1
            return sorted == Array(first..<first + Int64(sorted.count))
        }
    }

    static func snapshot(_ connection: PostgresConnection) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for row in try connection.query("SELECT stream, version FROM event_streams").rows {
            out[try row.requireString(0)] = try row.requireInt64(1)
        }
        return out
    }

    @Test("300 generated appends: taken exactly when the versions follow, refused with the version error otherwise")
    func generatedAppends() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        // Streams that exist already, at versions 1 to 4.
        for (i, stream) in Self.streams.prefix(4).enumerated() {
            _ = try store.append(AppendRequest(events: (0...i).map { _ in event(stream) }))
        }
        let superuser = try db.connect()
        var model = try Self.snapshot(superuser)
        var generator = Generator(state: 0x5eed_0007)
        var taken = 0
        var refused = 0
        for round in 0..<300 {
            var rows: [(stream: String, version: Int64)] = []
            var next = model
            for _ in 0..<(1 + generator.next(6)) {
                let stream = Self.streams[generator.next(Self.streams.count)]
                let version = (next[stream] ?? 0) + 1
                next[stream] = version
                rows.append((stream, version))
            }
            // Half of the appends are spoiled: a version moved by one, a repeat, a version of
            // one stream given to another, or two rows swapped (which stays valid).
            if generator.next(2) == 0 {
                let i = generator.next(rows.count)
                switch generator.next(4) {
                case 0: rows[i].version += generator.next(2) == 0 || rows[i].version == 1 ? 1 : -1
                case 1: rows.append(rows[i])
                case 2: rows[i].stream = Self.streams[generator.next(Self.streams.count)]
                default: rows.swapAt(i, generator.next(rows.count))
                }
            }
            let valid = Self.isValid(rows, current: model)
            let head = try LogReader(superuser).read(after: max(0, try LogReader(superuser).headPosition() - 1), limit: 1).first
            let start = (head?.position ?? 0) + 1
            var link = head?.hash ?? HashChain.genesis
            var links: [String] = []
            var hashes: [String] = []
            for offset in rows.indices {
                let hash = SHA256.hash(Array("\(round)-\(offset)".utf8))
                links.append(PostgresBytes(link).postgresText!)
                hashes.append(PostgresBytes(hash).postgresText!)
                link = hash
            }
            do {
                // One statement, so that the trigger judges the rows together, as an append.
                try superuser.transaction { tx in
                    try tx.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
                    try tx.query("""
                        INSERT INTO events (position, event_id, stream, stream_version, type, data, metadata, occurred_at,
                                            recorded_at, prev_hash, hash)
                        SELECT $1 + r.n - 1, gen_random_uuid(), r.stream, r.version, 'test.forged', '{}', '{}', now(), now(),
                               r.link::bytea, r.hash::bytea
                        FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY
                             AS r(stream, version, link, hash, n)
                        ORDER BY r.n
                        """, [start, PostgresTextArray(rows.map(\.stream)), PostgresTextArray(rows.map { String($0.version) }),
                              PostgresTextArray(links), PostgresTextArray(hashes)])
                }
                #expect(valid, "round \(round): \(rows) was taken on \(model)")
                for row in rows { model[row.stream] = max(model[row.stream] ?? 0, row.version) }
                taken += 1
            } catch let error as PostgresError {
                #expect(!valid, "round \(round): \(rows) was refused on \(model): \(error)")
                #expect(error.constraint == "event_streams_version", "round \(round): \(error)")
                // The refusal names one of the append's own events.
                let named = error.message.split(separator: " ").dropFirst().first.flatMap { Int64($0) }
                #expect(named.map { (start..<start + Int64(rows.count)).contains($0) } == true, "round \(round): \(error.message)")
                refused += 1
            }
            #expect(try Self.snapshot(superuser) == model, "round \(round)")
        }
        // Both sides of the rule were exercised.
        #expect(taken > 50 && refused > 50, "taken \(taken), refused \(refused)")
    }
}
