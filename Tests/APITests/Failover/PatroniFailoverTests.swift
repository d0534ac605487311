import API
import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import Projections
import Testing
import TestSupport
import Workers

/// Failover under Patroni (docs/scaling.md): etcd and three PostgreSQL nodes under Patroni
/// in synchronous mode (`ops/patroni/cluster.sh`); the service's API, its projector, a
/// checkpoint signer and writers under idempotency keys all on the libpq multi-host URL
/// (`target_session_attrs=read-write`), every node listed as a read replica. Patroni alone
/// elects and promotes: nothing here promotes a server.
@Suite("Failover under Patroni", .serialized, .bounded)
struct PatroniFailoverTests {
    @Test("kill -9 of the leader's PostgreSQL, then a switchover, each under load: Patroni promotes the synchronous standby, nothing acknowledged is lost or doubled, the log is gapless, the chain and the signed checkpoints verify, the projector goes on, and the old leader comes back as a streaming replica in read rotation")
    func crashAndSwitchover() throws {
        let cluster = try PatroniCluster()
        defer { cluster.stop() }
        // Made on the leader, then reached through the multi-host URL once every node has it:
        // libpq gives up at the first server that refuses a login, which a standby that has
        // not replayed the new database yet does.
        let leaderAtStart = try #require(cluster.waitForLeader(), "a leader")
        let made = try TestDatabase.create(cluster: try cluster.superuserURL(of: try #require(cluster.node(leaderAtStart.name))))
        #expect(try cluster.waitUntilReplayed(), "every node has the test's database and logins")
        let db = try made.reached(through: cluster.url)
        // Every node is a read replica: the one leading stays out of rotation by itself (it is no standby).
        let service = try TestService(database: db, readReplicaURLs: try cluster.nodes.map { try db.writerURL(onCluster: cluster.superuserURL(of: $0)) },
                                      replicaSettings: ReplicaSet.Settings(maxLagEvents: 10_000, maxLagSeconds: 1, pollInterval: 0.05, downAfter: 1))
        let f = try BillingFixture(service: service)
        defer { f.shutdown() }
        let signingKey = Ed25519SigningKey()
        let checkpointer = Checkpointer(configuration: .init(key: signingKey, origin: "ledger.test", policy: .init(events: 20, seconds: 3_600),
                                                             interval: 0.1, now: service.clock.read),
                                        store: service.store, connections: PostgresPool(conninfo: db.writerURL, maximumConnections: 2),
                                        isActive: { true }, log: { _, _, _ in })
        checkpointer.start()
        defer { checkpointer.stop() }
        try f.payer("acme")
        let readKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))

        // 1. The leader's postmaster is killed (kill -9) mid-load; Patroni fails over to the
        //    synchronous standby (primary_start_timeout: 0). The writers go on throughout.
        let first = try #require(cluster.waitForLeader(), "a leader")
        let crash = AppendLoad(store: service.store, name: "patroni_crash", writers: 4, pace: 0.02)
        #expect(crash.waitUntilAcknowledged(20))
        let headAtKill = crash.acknowledged.values.map(\.position).max() ?? 0
        let killedAt = Date()
        try cluster.killPostmaster(of: first.name)
        let second = try #require(cluster.waitForLeader(otherThan: first.name, timeout: 60), "Patroni elected a new leader")
        let elected = Date().timeIntervalSince(killedAt)
        crash.nudge()
        #expect(crash.waitUntilAcknowledged(crash.acknowledged.count + 40, timeout: 60), "appends were answered on \(second.name)")
        crash.stop()
        #expect(crash.wait(timeout: 120))
        let writableAfterCrash = try #require(crash.firstAcknowledgement(after: killedAt), "appends were answered after the crash")
        print("patroni: kill -9 of \(first.name)'s postmaster: \(second.name) leader after \(Self.seconds(elected)) s, writable after "
              + "\(Self.seconds(writableAfterCrash)) s; one append waited \(Self.seconds(crash.longestWait)) s at most; "
              + "\(crash.acknowledged.count - crash.acknowledgedCount(after: killedAt)) appends answered before the kill, "
              + "\(crash.acknowledgedCount(after: killedAt)) after; errors answered to the retrying writers: \(crash.errors.sorted { $0.key < $1.key })")
        try Self.holds(crash, cluster: cluster, leader: second.name, db: db, signedAfter: headAtKill)
        // The old leader comes back as a replica of the new one (pg_rewind when its WAL went past
        // the new leader's), streams, and serves reads again.
        #expect(cluster.waitUntilStreaming(first.name), "\(first.name) rejoined as a streaming replica")
        print("patroni: \(first.name) rejoined as a replica after \(Self.seconds(Date().timeIntervalSince(killedAt))) s"
              + (cluster.log(of: first.name).contains("pg_rewind") ? ", rewound by pg_rewind" : " (no pg_rewind needed)"))
        try Self.servesReads(cluster.nodes.firstIndex { $0.name == first.name }!, f: f, key: readKey)

        // 2. A switchover to the synchronous standby (`patronictl switchover`) mid-load.
        let leader = try #require(cluster.waitForLeader(), "a leader")
        let candidate = try #require(Poll.value(timeout: 30) { cluster.members()?.first { $0.role == "sync_standby" && $0.state == "running" } },
                                     "a synchronous standby")
        let switchover = AppendLoad(store: service.store, name: "patroni_switchover", writers: 4, pace: 0.02)
        #expect(switchover.waitUntilAcknowledged(20))
        let headAtSwitchover = switchover.acknowledged.values.map(\.position).max() ?? 0
        let switchedAt = Date()
        let answer = try cluster.switchover(from: leader.name, to: candidate.name)
        let patronictl = Date().timeIntervalSince(switchedAt)
        let third = try #require(cluster.waitForLeader(otherThan: leader.name, timeout: 60), "\(answer)")
        #expect(third.name == candidate.name)
        switchover.nudge()
        #expect(switchover.waitUntilAcknowledged(switchover.acknowledged.count + 40, timeout: 60), "appends were answered on \(third.name)")
        switchover.stop()
        #expect(switchover.wait(timeout: 120))
        print("patroni: switchover \(leader.name) → \(third.name): patronictl returned after \(Self.seconds(patronictl)) s; "
              + "no append answered for \(Self.seconds(switchover.longestPause(after: switchedAt))) s at most; one append waited "
              + "\(Self.seconds(switchover.longestWait)) s at most; \(switchover.acknowledged.count - switchover.acknowledgedCount(after: switchedAt)) "
              + "appends answered before it, \(switchover.acknowledgedCount(after: switchedAt)) after; "
              + "errors answered to the retrying writers: \(switchover.errors.sorted { $0.key < $1.key })")
        // A client retrying as documented sees only answers that say "try again", then its
        // append answered: no error reaches it.
        #expect(Set(switchover.errors.keys).isSubset(of: ["store_unavailable", "append_outcome_unknown"]), "\(switchover.errors)")
        try Self.holds(switchover, cluster: cluster, leader: third.name, db: db, signedAfter: headAtSwitchover)
        #expect(cluster.waitUntilStreaming(leader.name), "\(leader.name) rejoined as a streaming replica")
        try Self.servesReads(cluster.nodes.firstIndex { $0.name == leader.name }!, f: f, key: readKey)
    }

    static func seconds(_ value: Double) -> String { String(format: "%.2f", value) }

    /// On the leader `leader`: the checks of every failover (gapless, each append once at the
    /// position answered, the chain), the projector at the head, and the signed checkpoints,
    /// one of them signed on the new leader (past `signedAfter`).
    static func holds(_ load: AppendLoad, cluster: PatroniCluster, leader: String, db: TestDatabase, signedAfter: Int64,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = try db.superuserURL(onCluster: cluster.superuserURL(of: cluster.node(leader)!))
        let check = try PostgresConnection(conninfo: url)
        try FailoverChecks.logHolds(load, on: check, sourceLocation: sourceLocation)
        #expect(try FailoverChecks.projectionsReachHead([BillingProjection(), MerkleProjection()], on: check),
                "the projector followed the log onto \(leader)", sourceLocation: sourceLocation)
        #expect(try Poll.until(timeout: 10) {
            try check.query("SELECT 1 FROM events WHERE type = $1 AND position > $2", [LogCheckpointSigned.type, signedAfter]).rowCount > 0
        }, "a checkpoint was signed on \(leader)", sourceLocation: sourceLocation)
        try checkpointsVerify(on: check, url: url, sourceLocation: sourceLocation)
    }

    /// The Merkle tree holds the whole log with RFC 9162's root over the chain hashes, and
    /// every checkpoint signed so far, on either side of a failover, verifies: its signature
    /// over its text, and its root against the tree of the log now.
    static func checkpointsVerify(on check: PostgresConnection, url: String, sourceLocation: SourceLocation) throws {
        let leaves = try LogReader(check).read(after: 0, limit: 1_000_000).map(\.hash)
        let model = MerkleReadModel(connections: PostgresPool(conninfo: url, maximumConnections: 1))
        // The checkpointer goes on signing (an event each time): the tree is read once it
        // holds every event read above, and compared at that size.
        #expect(try Poll.until(timeout: 10) { try (model.treeSize() ?? 0) >= Int64(leaves.count) },
                "the tree reached the \(leaves.count) events read", sourceLocation: sourceLocation)
        #expect(try model.root(size: Int64(leaves.count)) == ReferenceMerkle.mth(leaves[...]), sourceLocation: sourceLocation)
        let positions = try check.query("SELECT position FROM events WHERE type = $1 ORDER BY position", [LogCheckpointSigned.type])
            .rows.map { try $0.requireInt64(0) }
        for position in positions {
            let signed = try #require(try model.checkpoint(at: position), sourceLocation: sourceLocation)
            #expect(Ed25519.verify(publicKey: signed.publicKey, message: Array(signed.checkpoint.text.utf8), signature: signed.signature),
                    "the checkpoint at \(position) is signed", sourceLocation: sourceLocation)
            #expect(signed.checkpoint.root == ReferenceMerkle.mth(leaves.prefix(Int(signed.checkpoint.size))[...]),
                    "the checkpoint at \(position) has the root of the log's first \(signed.checkpoint.size) events", sourceLocation: sourceLocation)
        }
    }

    /// The node at `index` of the cluster is in the service's read rotation (`replica-N` on
    /// the operations listener's `/readyz`) and serves a read.
    static func servesReads(_ index: Int, f: BillingFixture, key: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = "replica-\(index + 1)"
        func status() -> JSONValue? {
            (try? JSONValue.parse(f.service.operationsGet("/readyz").body))?["replicas"]?.arrayValue?.first { $0["name"]?.stringValue == name }
        }
        #expect(Poll.until(timeout: 30) { status()?["in_rotation"] == true }, "\(name) in rotation: \(String(describing: status()))",
                sourceLocation: sourceLocation)
        func reads() -> Int {
            let line = f.service.context.metrics.render().split(separator: "\n").first { $0.hasPrefix("ledger_reads_total{target=\"\(name)\"}") }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
        let before = reads()
        // Reads go to the replicas in rotation in turn: a few reach this one.
        var statuses: [Int] = []
        let served = try Poll.until(timeout: 10) {
            statuses.append(try f.get("/v1/payers/acme/balance", key: key).status)
            return reads() > before
        }
        #expect(served, "\(name) served a read", sourceLocation: sourceLocation)
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)", sourceLocation: sourceLocation)
    }
}
