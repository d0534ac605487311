import EventStore
import Foundation
import Glibc
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The projector as real processes: killed mid-transaction, and two of them at once.
@Suite("Projector processes", .bounded)
struct ProjectorProcessTests {
    func environment(_ db: TestDatabase, _ extra: [String: String] = [:]) -> [String: String] {
        var env = ["DATABASE_URL": db.projectorURL, "LEDGER_PROJECTOR_POLL_INTERVAL": "0.2",
                   "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory, "LEDGER_LOG_LEVEL": "info"]
        for (k, v) in extra { env[k] = v }
        return env
    }

    @Test("killed between applying and checkpointing, it applies every event exactly once after a restart")
    func crashBetweenApplyAndCheckpoint() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<200 { _ = try store.append(AppendRequest(event("s-\(i % 9)"))) }
        let crashing = try LedgerBinary.start(["project", "--batch", "30"],
                                              environment: environment(db, ["LEDGER_FAULT_CRASH_AFTER_POSITION": "100"]))
        #expect(crashing.wait(timeout: 60) == 97, "stderr: \(crashing.errors)")
        let connection = try db.connect()
        let reached = try ProjectionSchema.progress("proj_catalogue", on: connection)?.position ?? 0
        #expect(reached < 100, "the crashing batch must not have been checkpointed")
        #expect(try catalogueTotals(on: connection).types == reached, "nothing applied beyond the checkpoint")

        let projector = try LedgerBinary.start(["project", "--batch", "30"], environment: environment(db))
        #expect(try waitForProjections([LogIndexProjection()], url: db.superuserURL))
        projector.kill(signal: SIGTERM)
        #expect(projector.wait(timeout: 30) == 0)
        let totals = try catalogueTotals(on: connection)
        #expect(totals.types == 200 && totals.streams == 200)
    }

    @Test("two projectors: one applies, the other waits and takes over when the first is killed")
    func takeover() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<50 { _ = try store.append(AppendRequest(event("s-\(i % 4)"))) }
        let first = try LedgerBinary.start(["project"], environment: environment(db))
        #expect(try waitForProjections([LogIndexProjection()], url: db.superuserURL))
        let second = try LedgerBinary.start(["project"], environment: environment(db))
        #expect(Poll.until { second.errors.contains("waiting to take over") }, "stderr: \(second.errors)")
        #expect(!second.errors.contains("projector active"))

        for i in 0..<50 { _ = try store.append(AppendRequest(event("s-\(i % 4)"))) }
        #expect(try waitForProjections([LogIndexProjection()], url: db.superuserURL))
        first.kill(signal: SIGKILL)
        first.wait()
        #expect(Poll.until { second.errors.contains("projector active") }, "stderr: \(second.errors)")
        for i in 0..<50 { _ = try store.append(AppendRequest(event("s-\(i % 4)"))) }
        #expect(try waitForProjections([LogIndexProjection()], url: db.superuserURL))
        second.kill(signal: SIGTERM)
        second.wait()
        let totals = try catalogueTotals(on: try db.connect())
        #expect(totals.types == 150 && totals.streams == 150 && totals.head == 150)
    }
}
