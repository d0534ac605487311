import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres

/// `ledger-bench products`: `GET /v1/iap/products` under concurrent load over HTTP, with
/// the server's `/healthz` measured in the same run as the ceiling.
enum ProductsBenchmark {
    static let usage = """
        usage: ledger-bench products [--users U] [--requests R] [--concurrency C]

        Creates (once) the test app `bench-products` with the catalog of `ledger dev`'s demo
        app (four products, checkout, a migration campaign with two variants and an upgrade
        path) and U users (default 1000) who hold a StoreKit subscription (a quarter of them
        yearly), runs the projector until the
        catalog is projected, then, from C client threads (default 4) against the real HTTP
        API in this process, R requests (default 5000) each of: /healthz (the ceiling), the
        anonymous catalog (served from memory: no database round trip), and the catalog for
        a random user (one read of their purchases; trial eligibility, the offer and its
        impression). Prints requests/s and p50/p99 for each, and each as a share of the
        healthz rate. Needs a migrated, throwaway DATABASE_URL.
        """

    static let app = "bench-products"

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["users", "requests", "concurrency"])
        let users = try args.int("users", default: 1_000), n = try args.int("requests", default: 5_000)
        let c = try args.int("concurrency", default: 4)
        guard users > 0, n > 0, c > 0 else { throw UsageError("--users, --requests and --concurrency must be positive") }
        let url = try BenchDatabase.prepare("ledger_bench_products", reuse: false, environment: environment)
        let connection = try PostgresConnection(conninfo: url)
        let store = EventStore(conninfo: url)
        let key = try seed(store: store, users: users)
        store.close()

        let projector = BenchProjector(url: url)
        let service = try BenchService(url: url, environment: environment)
        defer { service.shutdown() }
        let head = try LogReader(connection).headPosition()
        guard try service.context.catalog.waitUntilCurrent(position: head, timeout: 600) else {
            projector.shutdown()
            throw BenchmarkFailure(.unexpectedResponse, "the catalog projection did not reach position \(head)")
        }
        projector.shutdown()   // the reads below compete with nothing but themselves

        let warmup = min(n / 10, 500)
        BenchOutput.line("http: \(c) client threads, \(n) requests per measurement after \(warmup) unmeasured, \(service.threads) server threads; \(users) users")
        let healthz = try HTTPLoad.run(port: service.port, concurrency: c, count: n, warmup: warmup) { _ in HTTPLoad.Request(path: "/healthz") }
        BenchOutput.line(healthz.line("healthz (ceiling)"))
        let headers = [("X-ZeroSettle-Key", key)]
        let anonymous = try HTTPLoad.run(port: service.port, concurrency: c, count: n, warmup: warmup) { _ in
            HTTPLoad.Request(path: "/v1/iap/products", headers: headers)
        }
        BenchOutput.line(anonymous.line("products, anonymous") + String(format: "; %.2f of the healthz rate", anonymous.perSecond / healthz.perSecond))
        let perUser = try HTTPLoad.run(port: service.port, concurrency: c, count: n, warmup: warmup) { i in
            HTTPLoad.Request(path: "/v1/iap/products?user_id=bench-user-\(i % users)", headers: headers)
        }
        BenchOutput.line(perUser.line("products, with user_id") + String(format: "; %.2f of the healthz rate", perUser.perSecond / healthz.perSecond))
        BenchOutput.line(String(format: "products: %.0f requests/s anonymous (p99 %.2f ms), %.0f with user_id (p99 %.2f ms); healthz %.0f/s (p99 %.2f ms)",
                                anonymous.perSecond, anonymous.p99, perUser.perSecond, perUser.p99, healthz.perSecond, healthz.p99))
        return 0
    }

    /// The app with the demo's catalog (`ledger dev`'s), and its users, each appended once
    /// (idempotency keys); returns the app's test key.
    static func seed(store: EventStore, users: Int) throws -> String {
        let metadata = EventMetadata(actor: Actor(.system, "ledger-bench"), reason: "ledger bench products")
        let (key, setup) = DemoData.catalogApp(app, name: "Bench", keySeed: "ledger bench products")
        _ = try store.append(AppendRequest(events: try setup.map {
            try DemoData.toAppend($0.event, stream: "app-" + app, metadata: metadata, idempotencyKey: "bench-products:" + $0.name)
        }))
        for first in stride(from: 0, to: users, by: 1_000) {
            let batch = try (first..<min(users, first + 1_000)).map { i in
                try DemoData.toAppend(DemoData.subscriber("bench-user-\(i)", app: app, purchaseID: "bench-\(i)",
                                                          product: i % 4 == 3 ? DemoData.yearly : DemoData.monthly),
                                      stream: "app-\(app)-purchases", metadata: metadata, idempotencyKey: "bench-products:user-\(i)")
            }
            _ = try store.append(AppendRequest(events: batch))
        }
        return key
    }
}
