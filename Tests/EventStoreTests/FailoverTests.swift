import Dispatch
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections
import Synchronization
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

        let acknowledged = Mutex<[String: Int64]>([:])   // idempotency key → position answered
        let outcomes = Mutex<[String: Int]>([:])           // error codes seen while retrying
        let killed = Atomic<Bool>(false)
        let crashed = Atomic<Bool>(false)
        let promoted = Atomic<Bool>(false)
        let group = DispatchGroup()
        let writers = 4, perWriter = 60
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for n in 0..<perWriter {
                    let key = "failover-\(writer)-\(n)"
                    let event = EventToAppend(stream: "failover-\(writer)", type: "test.failover_written",
                                              data: ["writer": .integer(Int64(writer)), "n": .integer(Int64(n))],
                                              metadata: EventMetadata(actor: Actor(.system, "test")))
                    // The same request under the same key until it is answered: a retry never doubles it.
                    let deadline = Date().addingTimeInterval(60)
                    while Date() < deadline {
                        do {
                            let r = try store.append(AppendRequest(events: [event], idempotencyKey: key))
                            acknowledged.withLock { $0[key] = r.position }
                            break
                        } catch {
                            let code = (error as? AppendError)?.code.rawValue ?? "\(error)"
                            outcomes.withLock { $0[code, default: 0] += 1 }
                            // Until the promotion, nothing takes writes: retry once it is done, or after 50 ms.
                            _ = Poll.until(timeout: 0.05) { promoted.load(ordering: .relaxed) }
                        }
                    }
                    if n == 5 && writer == 0 { killed.store(true, ordering: .relaxed) }
                    // Halfway, every writer waits for the crash, so that it falls mid-load
                    // however fast the first half went.
                    if n == perWriter / 2 { _ = Poll.until(timeout: 60) { crashed.load(ordering: .relaxed) } }
                }
            }
        }
        // Mid-load: the primary dies as in a crash, and the standby is promoted.
        #expect(Poll.until(timeout: 30) { killed.load(ordering: .relaxed) })
        try primary.crash()
        crashed.store(true, ordering: .relaxed)
        let answeredBefore = acknowledged.withLock { $0.count }
        try standby.promote()
        promoted.store(true, ordering: .relaxed)
        #expect(group.wait(timeout: .now() + 120) == .success)

        let acked = acknowledged.withLock { $0 }
        let seen = outcomes.withLock { $0 }
        #expect(answeredBefore < writers * perWriter, "the primary died mid-load: appends were answered after it")
        // An append in flight at the crash is either answered with an error (and retried under its
        // key) or settled by the appender itself once the new primary answers.
        print("failover: \(answeredBefore) appends answered before the crash; errors answered while failing over, then retried: \(seen.sorted { $0.key < $1.key })")
        #expect(acked.count == writers * perWriter, "every append was answered in the end (errors while failing over: \(outcomes.withLock { $0 }))")
        let check = try PostgresConnection(conninfo: try db.superuserURL(onCluster: standby.url))
        let span = try check.query("SELECT count(*), coalesce(min(position), 0), coalesce(max(position), 0) FROM events")[0]
        #expect(try span.requireInt64(0) == span.requireInt64(2) && span.requireInt64(1) == 1, "gapless on the new primary")
        let rows = try check.query("""
            SELECT idempotency_key, position, count(*) OVER (PARTITION BY data->>'writer', data->>'n')
            FROM events WHERE type = 'test.failover_written'
            """).rows
        #expect(rows.count == writers * perWriter, "each write once: nothing doubled")
        for row in rows {
            let key = try row.requireString(0)
            #expect(acked[key] == (try row.requireInt64(1)), "\(key): the position answered is the position held")
            #expect(try row.requireInt64(2) == 1)
        }
        let report = try ChainVerifier().verify(on: check)
        #expect(report.failure == nil, "\(String(describing: report.failure))")
        // The projector followed the log onto the new primary.
        let head = try LogReader(check).headPosition()
        #expect(Poll.until(timeout: 30) {
            (try? ProjectionSchema.progress(BillingProjection().schema, on: check))??.position ?? 0 >= head
        }, "the projector took over on the new primary")
    }
}
