import EventStore
import Postgres
import Testing
import TestSupport

/// The log's reads of rare types stay on the partial indexes made for them (0003, 0010),
/// however often a session runs them: the projector reads the set-asides once per batch,
/// and a read that fell back to the log's whole position index grew with the log.
@Suite("Log reads by type", .bounded)
struct LogReaderPlanTests {
    @Test("a read of set-asides uses their partial index on every run, past the five runs after which a prepared statement is planned generically")
    func setAsideReadsStayOnTheirIndex() throws {
        try withStore { store, db in
            for batch in 0..<10 {
                _ = try store.append(AppendRequest(events: (0..<1_000).map { event("plan-\($0 % 7)", data: ["n": .integer(Int64(batch * 1_000 + $0))]) }))
            }
            _ = try store.append(AppendRequest(events: [event("projection-set-asides", "projection.event_set_aside")]))
            let conn = try db.connect()
            // Statistics as a log of that size has them, so that the planner weighs the index.
            try conn.query("ANALYZE events")
            func indexScans() throws -> Int64 {
                // This session's counts, flushed at the end of the statement's transaction.
                try conn.query("SELECT pg_stat_force_next_flush()")
                return try conn.query("""
                    SELECT coalesce(sum(s.idx_scan), 0)::bigint FROM pg_stat_user_indexes s
                    JOIN pg_inherits i ON i.inhrelid = s.indexrelid WHERE i.inhparent = 'events_set_aside_idx'::regclass
                    """)[0].requireInt64(0)
            }
            let before = try indexScans()
            let runs = 12
            for _ in 0..<runs {
                #expect(try LogReader(conn).events(ofType: "projection.event_set_aside").count == 1)
            }
            let after = try indexScans()
            #expect(after - before >= Int64(runs), "\(after - before) scans of the set-aside index in \(runs) reads")
        }
    }
}
