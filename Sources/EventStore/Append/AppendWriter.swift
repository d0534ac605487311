import Dispatch
import Foundation
import LedgerDomain
import Postgres

/// Writes one batch of appends in one transaction, on the appender thread's connection.
///
/// The transaction takes the append lock (an advisory transaction lock, checked by the
/// log's insert trigger), reads the head, then writes. Holding the lock until commit is
/// what makes positions commit-ordered: the next batch can only read the head after this
/// one is visible, so a reader that has seen position p has seen everything below it.
final class AppendWriter: @unchecked Sendable {
    // Only ever used from the appender thread.
    private let conninfo: String
    private let faults: AppendFaults
    private var connection: PostgresConnection?
    /// The server process behind `connection`, to settle a commit whose answer is lost.
    private var backend: CommitResolver.Backend?
    private let resolver: CommitResolver
    private let versionCache = StreamVersionCache()
    /// Where the time of each transaction goes, for the benchmark.
    private(set) var phases = AppendPhases()
    /// The first position of the log's last partition, as `events_ensure_partitions` last
    /// answered: once a batch may reach that partition, the next one is made first.
    private var spareFrom: Int64 = 0
    /// The rows of the last transaction that committed, kept so that they are released
    /// with its answers on the answering thread rather than here (`takeCommittedRows`).
    private var committedRows: [AppendPlanner.Row] = []

    init(conninfo: String, faults: AppendFaults, resolveTimeout: Double) {
        self.conninfo = conninfo
        self.faults = faults
        self.resolver = CommitResolver(conninfo: conninfo, timeout: resolveTimeout)
    }

    func disconnect() { connection = nil }

    /// The rows the last committed transaction wrote, once; empty after.
    func takeCommittedRows() -> [AppendPlanner.Row] {
        defer { committedRows = [] }
        return committedRows
    }

    /// One result per append, in order. Never throws: a failure is reported per append,
    /// and a commit whose answer was lost is settled before anything is reported.
    func write(_ appends: [PreparedAppend]) -> [Result<AppendResult, AppendError>] {
        for attempt in 1...2 {
            var planned: [AppendPlanner.Outcome] = []
            var firstNewEvent: UUID?
            var commitSent = false
            do {
                let conn = try connect()
                do {
                    return try commit(appends, on: conn, planned: &planned, firstNewEvent: &firstNewEvent, commitSent: &commitSent)
                } catch let error as PostgresError where error.code == .connectionLost || !conn.isOpen {
                    connection = nil
                    versionCache.invalidate()
                    if commitSent {
                        // The commit may or may not have happened: find out before answering.
                        switch resolver.resolve(firstEvent: firstNewEvent, backend: backend) {
                        case .committed(let fresh):
                            // Never written again from here: its events are in the log.
                            try? adopt(fresh)
                            do {
                                return try results(planned, on: fresh)
                            } catch {
                                connection = nil
                                return appends.map { _ in .failure(AppendError(code: .outcomeUnknown,
                                    message: "the batch was committed, but the original results of its replays could not be read back: \(error)")) }
                            }
                        case .notCommitted(let fresh):
                            try? adopt(fresh)
                            continue
                        case .unknown(let message):
                            return appends.map { _ in .failure(AppendError(code: .outcomeUnknown, message: message)) }
                        }
                    }
                    // Lost before COMMIT was sent: the server rolled the transaction back.
                    if attempt == 2 { return fail(appends, error) }
                    continue
                }
            } catch let error as PostgresError where error.code == .connectionFailed || error.code == .connectionLost {
                connection = nil
                if attempt == 2 { return fail(appends, error) }
                continue
            } catch let error as PostgresError where error.isMissingPartition && attempt == 1 {
                // Another process took the head past the partitions this one knew of.
                spareFrom = 0
                continue
            } catch let error as PostgresError {
                // The server refused the batch. Split it so that one bad append cannot fail its
                // neighbours; a single append gets the error itself.
                versionCache.invalidate()
                guard appends.count > 1 else { return fail(appends, error) }
                return appends.flatMap { write([$0]) }
            } catch {
                versionCache.invalidate()
                return fail(appends, PostgresError(code: .serverError, message: "\(error)"))
            }
        }
        return fail(appends, PostgresError(code: .connectionLost, message: "the database is unreachable"))
    }

    /// Partitions are created ahead of need: there is always an empty one after the head
    /// (docs/scaling.md). When the batch may reach the last one, the next is made in the
    /// append's own transaction, under the append lock, so that it commits (or not) with
    /// the batch and a lost commit answer is settled for both at once.
    private func ensurePartitions(for appends: [PreparedAppend], head: Int64, on conn: PostgresConnection) throws {
        let events = Int64(appends.reduce(0) { $0 + $1.events.count })
        guard head + events >= spareFrom else { return }
        // Under the append lock the head is exact: positions up to head + events, and one
        // empty partition beyond them, are all this batch and the next check need.
        spareFrom = try conn.query("SELECT events_ensure_partitions($1)", [head + events])[0].requireInt64(0)
    }

    private func connect() throws -> PostgresConnection {
        if let connection, connection.isOpen { return connection }
        let fresh = try PostgresConnection(conninfo: conninfo)
        try adopt(fresh)
        return fresh
    }

    private func adopt(_ fresh: PostgresConnection) throws {
        backend = nil
        connection = nil
        try fresh.query(Self.sessionSettings)
        backend = try CommitResolver.Backend.current(on: fresh)
        connection = fresh
    }

    /// The appender's statements are prepared once per session and their generic plans
    /// kept: one chosen while the log was small (a sequential scan for the idempotency
    /// keys) would read the whole log under the append lock for as long as the session
    /// lives. Every statement it runs is a lookup through an index of `events`; these make
    /// any other plan impossible, whatever the log's size when it was planned.
    /// JIT is off because of that: a statement that must scan (a one-row settings table)
    /// is then costed past `jit_above_cost` and would be compiled at every execution
    /// (57 ms, measured; migration 0008).
    static let sessionSettings = "SET enable_seqscan = off; SET enable_hashjoin = off; SET enable_mergejoin = off; SET jit = off"

    private func fail(_ appends: [PreparedAppend], _ error: PostgresError) -> [Result<AppendResult, AppendError>] {
        let mapped: AppendError
        if error.sqlState?.hasPrefix("23") == true {
            mapped = AppendError(code: .invalidEvent, message: "the log refused the append: \(error.message)")
        } else {
            mapped = AppendError(code: .unavailable, message: "the event log could not be written: \(error.message)")
        }
        return appends.map { _ in .failure(mapped) }
    }

    private func commit(_ appends: [PreparedAppend], on conn: PostgresConnection, planned: inout [AppendPlanner.Outcome],
                        firstNewEvent: inout UUID?, commitSent: inout Bool) throws -> [Result<AppendResult, AppendError>] {
        var clock = PhaseClock()
        do {
            try conn.query("BEGIN; SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
            // Prepared (binary results are what make it go through a prepared statement):
            // planned once per session rather than at every batch, which on the
            // partitioned log costs more than the round trip it could have shared.
            let head = try conn.query(Self.headSQL, [], format: .binary)
            var planner = try makePlanner(for: appends, head: head[0], on: conn)
            try ensurePartitions(for: appends, head: planner.headPosition, on: conn)
            phases.lockAndRead += clock.lap()
            let startHead = planner.headPosition
            planned = try planAndInsert(appends, with: &planner, on: conn)
            let rows = planner.rows
            firstNewEvent = rows.first?.eventID
            if !rows.isEmpty && faults.abortAfterInsert() {
                try conn.query("SELECT 1 / 0")
            }
            phases.write += clock.lap()
            let results = try planned.map { outcome -> Result<AppendResult, AppendError> in
                switch outcome {
                case .appended(let r): return .success(r)
                case .failed(let e): return .failure(e)
                case .replay(let first, let count):
                    if first > startHead {
                        let start = Int(first - startHead - 1)
                        return .success(AppendResult(events: rows[start..<start + count].map {
                            AppendedEvent(position: $0.texts.position, eventID: $0.eventID, stream: $0.texts.stream,
                                          streamVersion: $0.texts.streamVersion, alreadyRecorded: true)
                        }, replayed: true))
                    }
                    return .success(try readBack(first: first, count: count, on: conn))
                }
            }
            commitSent = true
            try conn.query("COMMIT")
            if let last = rows.last { notify(head: last.texts.position, on: conn) }
            phases.commit += clock.lap()
            phases.transactions += 1
            versionCache.committed(head: planner.headPosition, hash: planner.headHash, versions: planner.versions)
            committedRows = rows
            return results
        } catch {
            if conn.isOpen { _ = try? conn.query("ROLLBACK") }
            // Partitions made in the transaction are gone with it.
            spareFrom = 0
            throw error
        }
    }

    /// Announces the new head, after the commit rather than in its transaction: a
    /// transaction that notifies holds PostgreSQL's one notification lock of the cluster
    /// from its commit's start to its end, which for the append is its WAL flush, and every
    /// other transaction that notifies (the projector's, each batch) then waits that flush
    /// out (`Lock:object`; commits of the projector of 99-216 ms, docs/benchmarks.md). The
    /// notification's own transaction commits without waiting for a flush (a notifying
    /// transaction is given an xid, so its commit would otherwise wait for one), and holds
    /// the lock an instant. One round trip. A crash between the append's commit and this
    /// loses only the notification: every listener also polls.
    private func notify(head: Int64, on conn: PostgresConnection) {
        do {
            try conn.pipeline([("BEGIN", []), ("SET LOCAL synchronous_commit TO off", []),
                               ("SELECT pg_notify($1, $2)", [EventStore.notificationChannel, String(head)]), ("COMMIT", [])])
        } catch {
            // Committed whatever happens here; a broken connection is replaced next batch.
            if !conn.isOpen { connection = nil }
        }
    }

    /// The log's head and the database clock, in one statement.
    static let headSQL = """
        SELECT h.position, h.hash, c.now_us FROM
          (SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now_us) c
          LEFT JOIN LATERAL (SELECT position, hash FROM events ORDER BY position DESC LIMIT 1) h ON true
        """

    private func makePlanner(for appends: [PreparedAppend], head: PostgresRow, on conn: PostgresConnection) throws -> AppendPlanner {
        let nowMicros = try head.requireBinaryInt64(2)
        guard let recordedAt = Timestamp(microseconds: nowMicros) else {
            throw PostgresError(code: .unexpectedResult, message: "the database clock is outside 1970-9999")
        }
        let headPosition = try head.binaryInt64(0) ?? 0
        let headHash = head.isNull(1) ? HashChain.genesis : try head.requireBinaryBytes(1)
        // Versions this appender wrote itself are still exact if nobody appended since.
        var versions = versionCache.take(head: headPosition, hash: headHash)
        // One pass, no set per append, and no copy of each event (ten references to
        // retain and release): this runs under the lock while the server waits.
        var unknown = Set<String>()
        var keys = Set<String>()
        for a in appends.indices {
            for e in appends[a].events.indices {
                let stream = appends[a].events[e].stream
                if versions[stream] == nil { unknown.insert(stream) }
                if let k = appends[a].events[e].idempotencyKey { keys.insert(k) }
            }
            for (stream, _) in appends[a].expectedVersions where versions[stream] == nil { unknown.insert(stream) }
        }
        if !unknown.isEmpty {
            let versionRows = try conn.query("""
                SELECT s.stream, (SELECT v.version FROM event_streams v WHERE v.stream = s.stream)
                FROM unnest($1::text[]) AS s(stream)
                """, [PostgresTextArray(Array(unknown))])
            for row in versionRows.rows { versions[try row.requireString(0)] = row.int64(1) ?? 0 }
        }
        var known: [String: AppendPlanner.KnownKey] = [:]
        if !keys.isEmpty {
            // One probe of the log per key known, whatever the statistics said when the
            // plan was made: as a plain join, a plan made on partitions analysed as empty
            // read every partition's whole index for each key (EXPLAIN of the generic plan).
            // A lateral subquery with OFFSET 0 is never flattened into the join, so the
            // log's side is always the inner one, probed by position.
            let keyRows = try conn.query("""
                SELECT k.idempotency_key, e.request_hash, e.position, e.event_id, e.stream, e.stream_version
                FROM event_keys k CROSS JOIN LATERAL (
                    SELECT x.request_hash, x.position, x.event_id, x.stream, x.stream_version
                    FROM events x WHERE x.position = k.position OFFSET 0) e
                WHERE k.idempotency_key = ANY($1::text[])
                """, [PostgresTextArray(Array(keys))])
            for row in keyRows.rows {
                guard let id = UUID(uuidString: try row.requireString(3)) else { continue }
                known[try row.requireString(0)] = AppendPlanner.KnownKey(
                    requestHash: try row.requireBytes(1), position: try row.requireInt64(2), eventID: id,
                    stream: try row.requireString(4), streamVersion: try row.requireInt64(5))
            }
        }
        return AppendPlanner(headPosition: headPosition, headHash: headHash,
                             recordedAt: recordedAt, versions: versions, keys: known)
    }

    /// Judges the appends one by one and streams the rows of each to the server as a
    /// binary COPY while the next ones are judged and hashed: the server inserts the first
    /// rows while the last are still being made. Binary COPY rather than multi-row INSERT:
    /// the server parses no SQL, no parameters and no text per row, which is most of the
    /// cost of inserting many rows. A batch whose appends all fail or replay copies no row,
    /// which the insert trigger lets through.
    private func planAndInsert(_ appends: [PreparedAppend], with planner: inout AppendPlanner,
                               on conn: PostgresConnection) throws -> [AppendPlanner.Outcome] {
        var outcomes: [AppendPlanner.Outcome] = []
        outcomes.reserveCapacity(appends.count)
        var planning = 0.0
        let recordedAt = planner.recordedAt
        try conn.copyIn(Self.copySQL, flushingAt: Self.copyFlushBytes) { stream in
            for append in appends {
                let started = DispatchTime.now().uptimeNanoseconds
                let before = planner.rows.count
                outcomes.append(planner.plan(append))
                for row in planner.rows[before...] { Self.encode(row, recordedAt: recordedAt, into: &stream.rows) }
                planning += Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                try stream.flushIfFull()
            }
        }
        phases.plan += planning
        phases.write -= planning
        return outcomes
    }

    /// Rows are sent once this much has gathered: small enough that the server starts on
    /// a group commit's first rows while the rest are planned (at the connection's default
    /// of 256 KB, about 430 events, it waited for them with nothing to do), large enough
    /// that the sends are few.
    static let copyFlushBytes = 32 << 10

    static let copySQL = "COPY events (position, event_id, stream, stream_version, type, data, metadata, occurred_at, recorded_at, corrects_position, idempotency_key, request_hash, prev_hash, hash) FROM STDIN WITH (FORMAT binary)"

    private static func encode(_ row: AppendPlanner.Row, recordedAt: Timestamp, into copy: inout PostgresBinaryCopyRows) {
        let t = row.texts
        copy.startRow(fields: 14)
        copy.int8(t.position)
        copy.uuid(row.eventID.uuid)
        copy.text(t.stream)
        copy.int8(t.streamVersion)
        copy.text(t.type)
        copy.jsonb(t.dataText)
        copy.jsonb(t.metadataText)
        copy.timestamptz(unixMicroseconds: row.occurredAt.microseconds)
        copy.timestamptz(unixMicroseconds: recordedAt.microseconds)
        copy.int8(t.correctsPosition)
        copy.text(t.idempotencyKey)
        copy.bytea(row.requestHash)
        copy.bytea(row.prevHash)
        copy.bytea(row.hash)
    }

    private func readBack(first: Int64, count: Int, on conn: PostgresConnection) throws -> AppendResult {
        let rows = try conn.query("""
            SELECT position, event_id, stream, stream_version FROM events
            WHERE position BETWEEN $1 AND $2 ORDER BY position
            """, [first, first + Int64(count) - 1])
        let events = try rows.rows.map { row in
            AppendedEvent(position: try row.requireInt64(0), eventID: UUID(uuidString: try row.requireString(1)) ?? UUID(),
                          stream: try row.requireString(2), streamVersion: try row.requireInt64(3), alreadyRecorded: true)
        }
        guard events.count == count else {
            throw PostgresError(code: .unexpectedResult, message: "the original append at \(first) has \(events.count) events, expected \(count)")
        }
        return AppendResult(events: events, replayed: true)
    }

    /// The results the planner decided, for a batch found committed after its answer was lost.
    private func results(_ planned: [AppendPlanner.Outcome], on conn: PostgresConnection) throws -> [Result<AppendResult, AppendError>] {
        try planned.map { outcome in
            switch outcome {
            case .appended(let r): return .success(r)
            case .failed(let e): return .failure(e)
            case .replay(let first, let count): return .success(try readBack(first: first, count: count, on: conn))
            }
        }
    }
}
