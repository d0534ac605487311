import Crypto
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres
import Projections

/// `ledger-bench proofs`: inclusion and consistency proofs of the log's Merkle tree over
/// real HTTP, on the read benchmark's log, beside `/healthz` of the same server and run.
enum ProofsBenchmark {
    static let usage = """
        usage: ledger-bench proofs [--events N] [--projects P] [--requests R] [--concurrency C]

        Builds or reuses the log of `ledger-bench read` (N events, default 1000000), brings
        the projections (the Merkle tree among them) to its head, issues an auditor key, and
        times R requests (default 20000) from C clients (default 4) of: /healthz (the
        ceiling), inclusion proofs of random positions in the whole tree, the route's
        statement for the same proofs straight through libpq (the baseline), and
        consistency proofs from random sizes to the whole tree. Ends with
        `proofs: inclusion X/s at N events; healthz Y/s`.
        """

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "projects", "requests", "concurrency"])
        let events = try args.int("events", default: 1_000_000), projects = try args.int("projects", default: 1_000)
        let requests = try args.int("requests", default: 20_000), concurrency = try args.int("concurrency", default: 4)
        guard requests > 0, concurrency > 0, projects > 0, events >= BenchReadLog.minimumEvents(projects: projects) else {
            throw UsageError("--requests, --concurrency and --projects must be positive, and --events at least 5 per project")
        }
        let url = try BenchDatabase.prepare(BenchReadLog.databaseName(events: events, projects: projects, extras: false), reuse: true, environment: environment)
        let connection = try PostgresConnection(conninfo: url)
        let log = BenchReadLog(events: events, projects: projects)
        BenchOutput.line("log: \(events) events over \(projects) projects")
        try log.reuseOrBuild(url: url, connection: connection)
        // The auditor's key, derived so that a rerun knows it.
        let secret = "sk_aud_bench_" + Hex.encode(SHA256.hash(Array("ledger bench proofs".utf8)).prefix(16))
        let store = EventStore(conninfo: url)
        let issue = AppendRequest(
            try AccountsDecider.issueKey(keyID: "bench-auditor", principal: KeyPrincipal(kind: .auditor, id: "bench"),
                                         sha256: Hex.encode(SHA256.hash(Array(secret.utf8))), prefix: String(secret.prefix(12)),
                                         state: AccountsDecider.State()),
            metadata: EventMetadata(actor: Actor(.system, "bench"), reason: "ledger bench proofs"))
        do { _ = try store.append(issue) } catch {
            guard error.code == .wrongExpectedVersion else { throw error }  // issued by an earlier run
        }
        store.close()
        try ReadBenchmark.measureProjector(url: url, connection: connection)

        let service = try BenchService(url: url, environment: environment)
        defer { service.shutdown() }
        guard let size = try MerkleReadModel(connections: service.connections).treeSize(), size > 1 else {
            throw BenchmarkFailure(.unexpectedResponse, "the Merkle tree is empty after the projector ran")
        }
        let warmup = min(requests / 10, 1_000)
        BenchOutput.line("http: \(concurrency) client threads, \(requests) requests per measurement after \(warmup) unmeasured; the tree holds \(size) events")
        let auth = [("Authorization", "Bearer " + secret)]
        let healthz = try HTTPLoad.run(port: service.port, concurrency: concurrency, count: requests, warmup: warmup) { _ in
            HTTPLoad.Request(path: "/healthz")
        }
        BenchOutput.line(healthz.line("healthz (ceiling)"))
        // Positions spread over the whole log by a multiplicative hash of the request number.
        @Sendable func spread(_ i: Int, _ n: Int64) -> Int64 { Int64((UInt64(i) &* 0x9E37_79B9_7F4A_7C15) % UInt64(n)) + 1 }
        let inclusion = try HTTPLoad.run(port: service.port, concurrency: concurrency, count: requests, warmup: warmup) { i in
            HTTPLoad.Request(path: "/v1/log/proofs/inclusion?position=\(spread(i, size))&size=\(size)", headers: auth)
        }
        // The baseline: the route's one statement, with the same node ids (those below the
        // levels the API keeps in memory) and the event, straight through libpq.
        let cachedFrom = service.context.merkleNodes.minimumLevel
        let raw = try RawStatementLoad.run(conninfo: url, concurrency: concurrency, count: requests, warmup: warmup) { i in
            let position = spread(i, size)
            let ids = (try? MerkleReadModel.inclusionNodeIDs(position: position, size: size, cachedFromLevel: cachedFrom)) ?? []
            return (MerkleReadModel.proofStatement, [PostgresTextArray(ids.map(String.init)), position])
        }
        BenchOutput.line(raw.line("inclusion proof's statement through libpq", unit: "statements"))
        BenchOutput.line(inclusion.line("inclusion proof") + String(format: "; %.2f of the healthz rate, %.2f of the raw statement's",
                                                                        inclusion.perSecond / healthz.perSecond, inclusion.perSecond / raw.perSecond))
        let consistency = try HTTPLoad.run(port: service.port, concurrency: concurrency, count: requests, warmup: warmup) { i in
            HTTPLoad.Request(path: "/v1/log/proofs/consistency?from=\(spread(i, size))&to=\(size)", headers: auth)
        }
        BenchOutput.line(consistency.line("consistency proof") + String(format: "; %.2f of the healthz rate", consistency.perSecond / healthz.perSecond))
        BenchOutput.line(String(format: "proofs: inclusion %.0f/s at %lld events; healthz %.0f/s", inclusion.perSecond, size, healthz.perSecond))
        return 0
    }
}
