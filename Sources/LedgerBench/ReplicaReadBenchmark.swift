import EventStore
import Foundation
import LedgerCLI
import Postgres
import ProjectionEngine
import Projections

/// `ledger-bench read --replicas N`: the journal and the catalog read over HTTP with 0, 1,
/// … N local hot standbys in one run. The standbys are copied from the benchmark's own
/// cluster (`pg_basebackup` as DATABASE_URL's user, which needs the REPLICATION right: the
/// `make bench` cluster's superuser has it), started on free ports, and deleted at the
/// end. On a machine of two cores the primary, the standbys, the server and the clients
/// share the same CPUs, so this shows the routing and its cost, not a speed-up.
enum ReplicaReadBenchmark {
    static func run(replicas count: Int, url: String, log: BenchReadLog, requests n: Int, concurrency c: Int,
                    environment: LedgerEnvironment) throws {
        let store = EventStore(conninfo: url)
        let catalogKey = try ProductsBenchmark.seed(store: store, users: 1_000)
        store.close()
        let primary = try PostgresConnection(conninfo: url)
        let head = try LogReader(primary).headPosition()
        // Every projection, the catalog's included, at the head before anything is copied.
        let projector = BenchProjector(url: url)
        _ = try projector.wait(for: head, connections: PostgresPool(conninfo: url, maximumConnections: 2))
        projector.shutdown()

        var standbys: [(cluster: EmbeddedPostgres, url: String)] = []
        defer {
            for standby in standbys {
                try? standby.cluster.stop()
                try? FileManager.default.removeItem(atPath: standby.cluster.directory)
            }
        }
        for i in 0..<count {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-bench-replica-\(i)-\(UUID().uuidString.prefix(8))").path
            let started = Date()
            let cluster = try startStandby(in: directory, of: url)
            guard var components = URLComponents(string: url) else { throw UsageError("DATABASE_URL is not a URL") }
            components.host = "127.0.0.1"
            components.port = cluster.port
            let replicaURL = components.string!
            standbys.append((cluster, replicaURL))
            try waitForReplay(replicaURL, head: head)
            BenchOutput.line(String(format: "replica-%d: a hot standby on 127.0.0.1:%d, copied and caught up in %.1f s", i + 1, cluster.port,
                                    Date().timeIntervalSince(started)))
        }

        let accounts = log.accounts
        let warmup = min(n / 10, 200)
        var journalRates: [Double] = [], catalogRates: [Double] = []
        for k in 0...count {
            let service = try BenchService(url: url, environment: environment, readReplicaURLs: standbys.prefix(k).map(\.url))
            defer { service.shutdown() }
            if let replicas = service.context.replicas {
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline && !replicas.statuses.allSatisfy(\.inRotation) { Thread.sleep(forTimeInterval: 0.05) }
                guard replicas.statuses.allSatisfy(\.inRotation) else {
                    throw BenchmarkFailure(.unexpectedResponse, "the replicas did not come into rotation: \(replicas.statuses.map { $0.detail ?? "?" })")
                }
            }
            guard try service.context.catalog.waitUntilCurrent(position: head, timeout: 60) else {
                throw BenchmarkFailure(.unexpectedResponse, "the catalog did not reach position \(head)")
            }
            let port = service.port
            let healthz = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in HTTPLoad.Request(path: "/healthz") }
            let journal = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { _ in
                let project = accounts.randomElement()!
                return HTTPLoad.Request(path: "/v1/projects/\(project.id)/journal?limit=\(ReadBenchmark.pageSize)",
                                        headers: [("Authorization", "Bearer " + project.key)])
            }
            let catalog = try HTTPLoad.run(port: port, concurrency: c, count: n, warmup: warmup) { i in
                HTTPLoad.Request(path: "/v1/iap/products?user_id=bench-user-\(i % 1_000)", headers: [("X-ZeroSettle-Key", catalogKey)])
            }
            journalRates.append(journal.perSecond)
            catalogRates.append(catalog.perSecond)
            BenchOutput.line("replicas \(k): " + journal.line("journal first page") + "; " + catalog.line("products with user_id")
                             + String(format: "; healthz %.0f/s", healthz.perSecond) + "; reads served: " + served(service))
        }
        func rates(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: " / ") }
        BenchOutput.line("read with 0..\(count) replicas: journal \(rates(journalRates)) requests/s; products with user_id \(rates(catalogRates)) requests/s "
                         + "(one machine: the standbys share its cores with the primary, the server and the clients)")
    }

    /// Each target's share of the reads, from the service's own counter.
    private static func served(_ service: BenchService) -> String {
        let lines = service.context.metrics.render().split(separator: "\n").filter { $0.hasPrefix("ledger_reads_total{") }
        var counts: [(String, Double)] = []
        for line in lines {
            guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\""),
                  let value = Double(line.split(separator: " ").last ?? "") else { continue }
            counts.append((String(line[line.index(after: open)..<close]), value))
        }
        let total = counts.map(\.1).reduce(0, +)
        guard total > 0 else { return "none" }
        return counts.sorted { $0.0 < $1.0 }.map { $0.0 + String(format: " %.0f%%", 100 * $0.1 / total) }.joined(separator: ", ")
    }

    /// Waits until the standby's billing projection has replayed `head`.
    private static func waitForReplay(_ url: String, head: Int64) throws {
        let deadline = Date().addingTimeInterval(600)
        while Date() < deadline {
            if let connection = try? PostgresConnection(conninfo: url),
               let checkpoint = try? ProjectionSchema.progress(BillingProjection().schema, on: connection), checkpoint.position >= head {
                return
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw BenchmarkFailure(.unexpectedResponse, "the standby at \(url) did not replay position \(head) within 10 minutes")
    }

    /// A standby in `directory` on a port below Linux's ephemeral range, tried again on
    /// another when the one drawn is taken (the copy is kept and only started again).
    private static func startStandby(in directory: String, of primary: String) throws -> EmbeddedPostgres {
        var lastError: (any Error)?
        for _ in 0..<5 {
            let cluster = EmbeddedPostgres(directory: directory, port: 15_000 + Int.random(in: 0..<15_000))
            do {
                _ = try cluster.start(replicaOf: primary)
                return cluster
            } catch {
                lastError = error
            }
        }
        throw lastError ?? BenchmarkFailure(.unexpectedResponse, "no standby could be started")
    }
}
