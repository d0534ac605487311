import Dispatch
import EventStore
import Foundation
import LedgerJSON
import Postgres
import Synchronization
import Testing
import TestSupport

/// No plan of the append path depends on the size of the log when its session
/// started. The log is partitioned (5,000 positions a partition here, so the run crosses
/// forty boundaries, each partition made by the appender ahead of need). One appender session lives from an empty log to 200,000 events, through every
/// statement the append path has (expected versions, event-level and append-level keys,
/// replays), and `events` is never read by a sequential scan: not by the appender's own
/// lookups, not by the insert trigger's checks.
@Suite("Appending: plans that do not grow with the log", .bounded)
struct AppendPlanTests {
    @Test("one session from an empty log to 200,000 events never scans the log")
    func appendsNeverScanTheLog() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let before = try Self.scans(db)
        let store = EventStore(conninfo: db.writerURL)
        let threads = 8, appendsPerThread = 250, eventsPerAppend = 100
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            var versions: [String: Int64] = [:]
            var replayable: AppendRequest?
            for a in 0..<appendsPerThread {
                let events = (0..<eventsPerAppend).map { e -> EventToAppend in
                    let stream = "plan-\(t)-\((a + e) % 20)"
                    versions[stream, default: 0] += 1
                    return event(stream, data: ["a": .integer(Int64(a)), "e": .integer(Int64(e))],
                                 key: a % 3 == 0 ? "plan-key-\(t)-\(a)-\(e)" : nil)
                }
                var request = AppendRequest(events: events)
                if a % 3 == 1 { request.idempotencyKey = "plan-append-\(t)-\(a)" }
                if a % 4 == 2, let stream = events.first?.stream {
                    // The version the stream had before this append: this thread owns it.
                    let written = Int64(events.filter { $0.stream == stream }.count)
                    request.expectedVersions = [stream: .exactly(versions[stream]! - written)]
                }
                do {
                    _ = try store.append(request)
                    if request.idempotencyKey != nil { replayable = request }
                    if a % 25 == 24, let again = replayable {
                        let replay = try store.append(again)
                        if !replay.replayed { failures.withLock { $0.append("thread \(t): a replay wrote again") } }
                    }
                } catch {
                    failures.withLock { $0.append("thread \(t), append \(a): \(error)") }
                }
            }
        }
        // The session ends here, and with it its statistics reach the server.
        store.close()
        #expect(failures.withLock { $0 } == [])
        try Self.untilStatisticsFlushed(db)
        let after = try Self.scans(db)
        let rows = try db.connect().query("SELECT count(*) FROM events")[0].int64(0)
        #expect(rows == Int64(threads * appendsPerThread * eventsPerAppend))
        // Rows read by sequential scans: a partition is scanned once while it is made (its
        // indexes built and its bound checked on an empty table), which reads nothing.
        #expect(after.sequential == before.sequential,
                "the append path read \(after.sequential - before.sequential) rows of the log by sequential scans")
        // Nor through a whole index (a hashed subplan fed by a full index scan is no
        // sequential scan, and reads the log all the same): a few entries per event.
        let read = after.entriesRead - before.entriesRead
        #expect(read <= 4 * rows!, "the append path read \(read) index entries for \(rows!) events")
    }

    /// Migration 0009. Statistics that say the log is empty (`VACUUM ANALYZE` of a new
    /// database, or `ledger bench`'s rest between measurements) and a first group commit of
    /// a thousand events: a plan kept from then on joined the append's streams to every row
    /// of `event_streams` (874,125 rows compared to move 875 streams, 236 ms, on a table of
    /// 1,000), growing with the number of streams in the log. Each group commit here starts
    /// 500 streams, so a plan that reads the table reads more at every one.
    @Test("plans made on an analysed empty log stay probes as the streams and keys grow")
    func plansMadeOnAnAnalysedEmptyLog() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let appends = 24, streamsPerAppend = 500
        let owner = try db.connect()
        // Partitions made ahead, as a running log has them: none is made by the appends
        // (making one in the first group commit happens to give that commit a good plan).
        _ = try owner.query("SELECT events_ensure_partitions($1)", [Int64(appends * 2 * streamsPerAppend)])
        try owner.query("VACUUM (ANALYZE) events, event_ids, event_keys, event_streams")
        let before = try Self.scans(db)
        let streamsBefore = try Self.entriesRead(db, index: "event_streams_pkey")
        let store = EventStore(conninfo: db.writerURL)
        for a in 0..<appends {
            let events = (0..<2 * streamsPerAppend).map { e in
                event("grown-\(a)-\(e % streamsPerAppend)", data: ["e": .integer(Int64(e))], key: e % 2 == 0 ? "grown-\(a)-\(e)" : nil)
            }
            _ = try store.append(AppendRequest(events: events))
        }
        store.close()
        try Self.untilStatisticsFlushed(db)
        let events = Int64(appends * 2 * streamsPerAppend)
        let read = try Self.scans(db).entriesRead - before.entriesRead
        #expect(read <= 4 * events, "the append path read \(read) index entries for \(events) events")
        // A probe per stream of each group commit, and the conflict check of the ones it starts.
        let streamsRead = try Self.entriesRead(db, index: "event_streams_pkey") - streamsBefore
        #expect(streamsRead <= 4 * Int64(appends * streamsPerAppend),
                "the append path read \(streamsRead) entries of event_streams for \(appends * streamsPerAppend) streams started")
    }

    /// Waits until every session of the service's login (the appending store's) has ended: a backend sends its
    /// statistics to the server's counters when it exits (PostgreSQL 15 flushes a busy
    /// backend's only now and then), so only then are the counters the whole count. A
    /// change in them alone could be one session's share.
    static func untilStatisticsFlushed(_ db: TestDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let gone = try Poll.until(timeout: 30) {
            try db.connect().query("""
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND usename = $1 AND backend_type = 'client backend'
                """, [TestDatabase.writerLogin])[0].requireInt64(0) == 0
        }
        try #require(gone, "the appending sessions did not end within 30 s", sourceLocation: sourceLocation)
    }

    /// Index entries read through one index so far.
    static func entriesRead(_ db: TestDatabase, index: String) throws -> Int64 {
        try db.connect().query("SELECT coalesce(sum(idx_tup_read), 0)::bigint FROM pg_stat_user_indexes WHERE indexrelname = $1",
                               [index])[0].requireInt64(0)
    }

    /// Migration 0008. The trigger and the partition maker run with sequential scans off,
    /// so a statement that must scan is costed past `jit_above_cost` and would be compiled
    /// by LLVM at every execution (57 ms measured). A later `CREATE OR REPLACE` of either
    /// function resets its settings: this is what catches one that forgets `jit = off`.
    @Test("the append path's functions never JIT-compile", arguments: ["events_check_append", "events_ensure_partitions"])
    func functionsRunWithoutJIT(function: String) throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let settings = try db.connect().query(
            "SELECT array_to_string(proconfig, ',') FROM pg_proc WHERE proname = $1", [function])
        #expect(settings.rowCount == 1)
        let config = settings.rowCount == 1 ? settings.string(row: 0, column: 0) ?? "" : ""
        #expect(config.split(separator: ",").contains("jit=off"), "\(function) runs with \(config)")
        #expect(config.split(separator: ",").contains("enable_seqscan=off") || function == "events_ensure_partitions")
    }

    /// Rows read by sequential scans of `events` so far, index scans, and the index entries
    /// they read, as the statistics collector counts them.
    static func scans(_ db: TestDatabase) throws -> (sequential: Int64, index: Int64, entriesRead: Int64) {
        // A connection of its own each time: a session keeps a snapshot of the statistics.
        // The log is its partitions, and the side tables the trigger keeps (migration 0005).
        let row = try db.connect().query("""
            WITH log AS (
                SELECT inhrelid AS relid FROM pg_inherits WHERE inhparent = 'events'::regclass
                UNION ALL SELECT c.oid FROM pg_class c WHERE c.relname IN ('event_ids', 'event_keys', 'event_streams'))
            SELECT coalesce(sum(t.seq_tup_read), 0)::bigint, coalesce(sum(t.idx_scan), 0)::bigint,
                   (SELECT coalesce(sum(i.idx_tup_read), 0)::bigint FROM pg_stat_user_indexes i WHERE i.relid IN (SELECT relid FROM log))
            FROM pg_stat_user_tables t WHERE t.relid IN (SELECT relid FROM log)
            """)[0]
        return (try row.requireInt64(0), try row.requireInt64(1), try row.requireInt64(2))
    }
}
