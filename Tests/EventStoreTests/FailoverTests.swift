import EventStore
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// Failover (docs/scaling.md): a primary with a synchronous standby, the
/// appender and the projector on a libpq multi-host URL that follows whichever server
/// takes writes (`target_session_attrs=read-write`), writers appending under idempotency
/// keys; the primary is killed mid-load and the standby promoted (`pg_ctl promote`).
@Suite("Failover to a promoted standby", .bounded)
struct FailoverTests {
    @Test("a standby promoted under load: the log is gapless, nothing acknowledged is lost, nothing is doubled, the chain verifies and the projector goes on")
    func promotionUnderLoad() throws {
        let primary = try TestCluster(settings: ["synchronous_standby_names=*", "synchronous_commit=on"])
        defer { primary.destroy() }
        let standby = try TestCluster(replicaOf: primary)
        defer { standby.destroy() }
        // Synchronous: a commit is answered once the standby has it, so none answered is lost with the primary.
        let admin = try PostgresConnection(conninfo: primary.url)
        #expect(try Poll.until(timeout: 30) {
            try admin.query("SELECT sync_state FROM pg_stat_replication").rows.map { $0.string(0) } == ["sync"]
        })
        let db = try TestDatabase.create(cluster: primary.url)
        // Whichever of the two takes writes: the primary, then the promoted standby.
        let both = "postgresql://\(TestDatabase.writerLogin):\(TestDatabase.loginPassword)@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/\(db.name)"
            + "?target_session_attrs=read-write&connect_timeout=2"
        let store = EventStore(conninfo: both)
        defer { store.close() }
        let projector = ProjectorThread(url: both.replacingOccurrences(of: TestDatabase.writerLogin, with: TestDatabase.projectorLogin),
                                        projections: [BillingProjection()], batchSize: 200)
        defer { projector.stop() }

        // Four writers under idempotency keys; the primary dies as in a crash mid-load, and
        // the standby is promoted; the writers go on on it.
        let load = AppendLoad(store: store, name: "failover", writers: 4)
        #expect(load.waitUntilAcknowledged(24))
        try primary.crash()
        let answeredBefore = load.acknowledged.count
        try standby.promote()
        load.nudge()
        #expect(load.waitUntilAcknowledged(answeredBefore + 40, timeout: 60), "appends were answered on the new primary")
        load.stop()
        #expect(load.wait(timeout: 120))

        // An append in flight at the crash is either answered with an error (and retried under its
        // key) or settled by the appender itself once the new primary answers.
        print("failover: \(answeredBefore) appends answered before the crash; errors answered while failing over, then retried: \(load.errors.sorted { $0.key < $1.key })")
        let check = try PostgresConnection(conninfo: try db.superuserURL(onCluster: standby.url))
        try FailoverChecks.logHolds(load, on: check)
        #expect(try FailoverChecks.projectionsReachHead([BillingProjection()], on: check), "the projector took over on the new primary")
    }
}
