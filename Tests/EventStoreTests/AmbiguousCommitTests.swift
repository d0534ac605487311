import EventStore
import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport

/// An append's outcome is never misreported (docs/event-log.md). Reproduces a commit whose answer
/// is lost: the COMMIT is held (a synchronous standby that does not exist), then the
/// server is crashed (`pg_ctl -m immediate`) while it waits. The commit record is already
/// in the WAL, so after recovery the events are in the log: the appender must say so,
/// not "nothing was appended".
@Suite("Appends whose commit answer is lost", .serialized, .bounded)
struct AmbiguousCommitTests {
    /// A migrated database on a cluster of the test's own, whose commits wait for a standby
    /// named `ghost` that never connects, once `hold()` is called.
    final class HeldCluster {
        let cluster: TestCluster
        let url: String

        init() throws {
            cluster = try TestCluster(settings: ["synchronous_standby_names=ghost", "synchronous_commit=off"])
            let admin = try PostgresConnection(conninfo: cluster.url)
            try admin.query("CREATE DATABASE ledger")
            url = cluster.url(database: "ledger")
            try Migrator(migrations: try Migration.load(from: TestDatabase.migrationsDirectory))
                .migrate(on: try PostgresConnection(conninfo: url))
        }

        /// From now on every new session's commit waits for the missing standby.
        func hold() throws {
            try PostgresConnection(conninfo: url).query("ALTER DATABASE ledger SET synchronous_commit = on")
        }

        func release() throws {
            let connection = try PostgresConnection(conninfo: url)
            try connection.query("SET synchronous_commit = off")
            try connection.query("ALTER DATABASE ledger SET synchronous_commit = off")
        }

        /// Whether some session is waiting for the standby to confirm its commit.
        func commitIsHeld() -> Bool {
            let rows = try? PostgresConnection(conninfo: url).query(
                "SELECT 1 FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
            return (rows?.rowCount ?? 0) > 0
        }

        func count(key: String) throws -> Int64 {
            try PostgresConnection(conninfo: url).query("SELECT count(*) FROM events WHERE idempotency_key = $1", [key])[0].requireInt64(0)
        }

        deinit { cluster.destroy() }
    }

    static func credit(key: String) -> AppendRequest {
        AppendRequest(event("payer-acme", "credit.test", data: ["amount": "100"]), idempotencyKey: key)
    }

    @Test("a commit held and crashed is found committed after recovery, and a retry appends nothing")
    func heldCommitIsResolvedAfterRecovery() throws {
        let held = try HeldCluster()
        try held.hold()
        let store = EventStore(conninfo: held.url, resolveTimeout: 120)
        defer { store.close() }
        let answer = Mutex<Result<AppendResult, AppendError>?>(nil)
        store.submit(Self.credit(key: "credit-1")) { result in answer.withLock { $0 = result } }
        #expect(Poll.until(timeout: 30) { held.commitIsHeld() })
        #expect(answer.withLock { $0 } == nil)
        try held.cluster.crash()
        try held.cluster.restart()
        try held.release()
        #expect(Poll.until(timeout: 120) { answer.withLock { $0 } != nil })
        let result = try #require(try answer.withLock { $0 }?.get())
        #expect(!result.replayed)
        #expect(try held.count(key: "credit-1") == 1)
        // The retry that an operator would run finds it and writes nothing.
        let retry = try store.append(Self.credit(key: "credit-1"))
        #expect(retry.replayed)
        #expect(retry.position == result.position)
        #expect(try held.count(key: "credit-1") == 1)
    }

    @Test("while the database stays down the outcome is reported unknown; the retry with the same key appends once")
    func outcomeUnknownWhileTheDatabaseIsDown() throws {
        let held = try HeldCluster()
        try held.hold()
        let store = EventStore(conninfo: held.url, resolveTimeout: 2)
        defer { store.close() }
        let answer = Mutex<Result<AppendResult, AppendError>?>(nil)
        store.submit(Self.credit(key: "credit-2")) { result in answer.withLock { $0 = result } }
        #expect(Poll.until(timeout: 30) { held.commitIsHeld() })
        try held.cluster.crash()
        #expect(Poll.until(timeout: 30) { answer.withLock { $0 } != nil })
        let outcome = try #require(answer.withLock { $0 })
        guard case .failure(let error) = outcome else {
            Issue.record("expected the outcome to be unknown, got \(outcome)")
            return
        }
        #expect(error.code == .outcomeUnknown)
        try held.cluster.restart()
        try held.release()
        let retry = try store.append(Self.credit(key: "credit-2"))
        #expect(retry.replayed, "the held commit was in the WAL: the retry must find it")
        #expect(try held.count(key: "credit-2") == 1)
    }
}
