@testable import API
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import Testing
import TestSupport

/// Reads on a hot standby (docs/scaling.md): a primary and a streaming replica of its own
/// (pg_basebackup), the real service with `LEDGER_READ_DATABASE_URLS` naming the replica,
/// the projector on the primary.
@Suite("Read replicas", .serialized, .bounded)
struct ReplicaTests {
    /// A primary cluster, its standby, a migrated database on them, the service and its projector.
    final class Setup: Sendable {
        let primary: TestCluster
        let replica: TestCluster
        let f: BillingFixture
        let replicaURL: String

        init(settings: ReplicaSet.Settings = ReplicaSet.Settings(maxLagEvents: 10_000, maxLagSeconds: 1, pollInterval: 0.05, downAfter: 1)) throws {
            primary = try TestCluster()
            replica = try TestCluster(replicaOf: primary)
            let db = try TestDatabase.create(cluster: primary.url)
            replicaURL = try db.superuserURL(onCluster: replica.url)
            let service = try TestService(database: db, readReplicaURLs: [try db.writerURL(onCluster: replica.url)],
                                          replicaSettings: settings)
            f = try BillingFixture(service: service)
        }

        func shutdown() {
            f.shutdown()
            replica.destroy()
            primary.destroy()
        }

        /// Reads served by `target` (`primary`, `replica-1`) so far.
        func reads(_ target: String) -> Int {
            let line = f.service.context.metrics.render().split(separator: "\n")
                .first { $0.hasPrefix("ledger_reads_total{target=\"\(target)\"}") }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }

        /// The replica as the operations listener's `/readyz` shows it.
        func replicaStatus() throws -> JSONValue? {
            try JSONValue.parse(f.service.operationsGet("/readyz").body)["replicas"]?.arrayValue?.first
        }

        /// Waits until the replica serves reads and its billing projection has `position`.
        func untilReplicaHas(_ position: Int64) throws -> Bool {
            try Poll.until(timeout: 20) {
                guard let r = try replicaStatus() else { return false }
                return r["in_rotation"] == true && (r["projections"]?["billing"]?.int64Value ?? -1) >= position
            }
        }

        func sql(_ text: String) throws {
            try PostgresConnection(conninfo: replicaURL).query(text)
        }
    }

    @Test("reads go to the replica; with its replay paused, read-your-writes holds through min_position, its lag shows, and it leaves rotation then comes back by itself")
    func readYourWritesAcrossTheHop() throws {
        let s = try Setup()
        defer { s.shutdown() }
        let f = s.f
        try f.payer("acme")
        let key = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        _ = try f.credit(.payer("acme"), .grant, 1_000)
        #expect(try s.untilReplicaHas(try f.service.store.log.headPosition()))

        let before = s.reads("replica-1")
        let first = try f.get("/v1/payers/acme/balance", key: key)
        #expect(first.status == 200 && first.body["posted"] == "1000")
        #expect(s.reads("replica-1") == before + 1, "served by the replica")

        try s.sql("SELECT pg_wal_replay_pause()")
        let credit = try f.credit(.payer("acme"), .grant, 500)
        // A read that must reflect the credit is served where it is: the primary.
        let primaryBefore = s.reads("primary")
        let fresh = try f.get("/v1/payers/acme/balance?min_position=\(credit.position)", key: key)
        #expect(fresh.status == 200 && fresh.body["posted"] == "1500", "\(fresh.body)")
        #expect(s.reads("primary") == primaryBefore + 1)
        // A key issued just now, with min_position, authenticates where the read goes.
        let fresher = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        let head = try f.service.store.log.headPosition()
        #expect(try f.get("/v1/payers/acme/journal?min_position=\(head)", key: fresher).status == 200)

        // The replica's lag shows; past the bound it leaves rotation and the primary serves everything.
        #expect(try Poll.until(timeout: 10) { try s.replicaStatus()?["replay_paused"] == true })
        #expect(try Poll.until(timeout: 10) { try s.replicaStatus()?["in_rotation"] == false }, "out of rotation")
        let status = try #require(try s.replicaStatus())
        #expect((status["lag_events"]?.int64Value ?? 0) >= 1 && (status["lag_ms"]?.int64Value ?? 0) >= 1_000, "\(status)")
        #expect(try JSONValue.parse(f.service.operationsGet("/readyz").body)["ready"] == true, "a replica out of rotation does not make the service unready")
        // The public port says as much, and nothing of the replica: not its name, its
        // address or its lag (docs/security.md, "Health without the map").
        let publicReadiness = try f.service.get("/readyz")
        #expect(try JSONValue.parse(publicReadiness.body) == ["status": "ready", "reason": .string(Readiness.Reason.ready)])
        let publicText = String(decoding: publicReadiness.body, as: UTF8.self)
        let address = try #require(status["address"]?.stringValue)
        #expect(!publicText.contains("replica") && !publicText.contains(address), "\(publicText)")
        let metrics = f.service.context.metrics.render()
        #expect(metrics.contains("ledger_replica_in_rotation{replica=\"replica-1\"} 0"))
        #expect(metrics.contains("ledger_replica_lag_events{replica=\"replica-1\"}"))
        let whilePaused = s.reads("replica-1")
        #expect(try f.get("/v1/payers/acme/balance", key: key).body["posted"] == "1500")
        #expect(s.reads("replica-1") == whilePaused, "nothing goes to a replica out of rotation")

        try s.sql("SELECT pg_wal_replay_resume()")
        #expect(try s.untilReplicaHas(try f.service.store.log.headPosition()), "back in rotation by itself")
        let back = s.reads("replica-1")
        #expect(try f.get("/v1/payers/acme/balance", key: key).body["posted"] == "1500")
        #expect(s.reads("replica-1") == back + 1)
    }

    @Test("a replica killed is taken out of rotation without a failed read, and comes back by itself when it restarts")
    func replicaKilledAndRestarted() throws {
        let s = try Setup()
        defer { s.shutdown() }
        let f = s.f
        try f.payer("acme")
        let key = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        #expect(try s.untilReplicaHas(try f.service.store.log.headPosition()))
        try s.replica.crash()
        // Reads right after the crash may pick the replica once more: they are done again on the primary.
        for _ in 0..<10 { #expect(try f.get("/v1/payers/acme/balance", key: key).status == 200) }
        #expect(try Poll.until(timeout: 10) { try s.replicaStatus()?["in_rotation"] == false })
        _ = try f.credit(.payer("acme"), .grant, 70)
        try s.replica.restart()
        #expect(try s.untilReplicaHas(try f.service.store.log.headPosition()), "it caught up and came back")
        let before = s.reads("replica-1")
        #expect(try f.get("/v1/payers/acme/balance", key: key).body["posted"] == "70")
        #expect(s.reads("replica-1") == before + 1)
    }

    @Test("the in-memory catalog follows the replica: a change reaches it once the replica has replayed it")
    func catalogFollowsTheReplica() throws {
        let s = try Setup()
        defer { s.shutdown() }
        let f = s.f
        try f.app("demo")
        let catalog = f.service.context.catalog
        let first = try f.service.store.log.headPosition()
        #expect(try catalog.waitUntilCurrent(position: first))
        // The replica serves reads and has the catalog: from now on the catalog follows it.
        #expect(try Poll.until(timeout: 20) {
            guard let r = try s.replicaStatus() else { return false }
            return r["in_rotation"] == true && (r["projections"]?["iap"]?.int64Value ?? -1) >= first
        })
        try s.sql("SELECT pg_wal_replay_pause()")
        try f.app("second")
        let target = try f.service.store.log.headPosition()
        #expect(try Poll.until(timeout: 3) { (try s.replicaStatus()?["lag_events"]?.int64Value ?? 0) > 0 })
        #expect(catalog.position < target, "the replica has not replayed it: the catalog it serves has not moved")
        try s.sql("SELECT pg_wal_replay_resume()")
        #expect(try catalog.waitUntilCurrent(position: target))
        #expect(f.service.context.metrics.render().contains("ledger_catalog_reloads_total{cause=\"replica\"}"))
    }
}
