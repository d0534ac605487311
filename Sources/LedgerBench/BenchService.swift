import API
import Crypto
import EventStore
import HTTP
import LedgerCLI
import Observability
import Postgres
import Projections
import Stripe

/// The real HTTP API, wired as `ledger serve` wires it (router, connections size, HTTP threads
/// from the environment), but in the benchmark's process on a port the kernel picks, so
/// that a benchmark needs no second process and measures the same code.
final class BenchService: Sendable {
    let store: EventStore
    let connections: PostgresPool
    let server: HTTPServer
    let context: ServiceContext
    /// The server's request threads (LEDGER_HTTP_THREADS).
    let threads: Int

    /// `readReplicaURLs`: hot standbys the read endpoints use (`ledger-bench read --replicas`);
    /// `appStore`: the App Store surfaces' settings (`ledger-bench appstore-sync` trusts its
    /// own test authority there); `stripeWebhooks`: the apps whose Stripe webhooks it
    /// verifies, with their endpoint secrets (`ledger-bench stripe`).
    init(url: String, environment: LedgerEnvironment, readReplicaURLs: [String] = [],
         appStore: AppStoreSettings = AppStoreSettings(sessionSecret: []),
         stripeWebhooks: StripeWebhookEndpoints = StripeWebhookEndpoints()) throws {
        threads = try environment.int(.httpThreads)
        connections = PostgresPool(conninfo: url, maximumConnections: try environment.int(.poolSize))
        store = EventStore(conninfo: url, connections: connections)
        let logger = Logger(minimumLevel: .info, sink: BenchLogSink()).with(["component": "api"])
        let metrics = MetricsRegistry()
        // Cursors need not survive this process, so any 32 random bytes will do.
        context = ServiceContext(store: store, connections: connections, logger: logger, metrics: metrics,
                                     migrations: try environment.migrations(), projections: AllProjections.all,
                                     readyMaxLag: Int64(try environment.int(.readyMaxLag)), cursorSecret: SecureRandom.bytes(32),
                                     appStore: appStore, readReplicaURLs: readReplicaURLs, stripeWebhooks: stripeWebhooks,
                                     admission: try environment.admissionSettings())
        context.start()
        // Every client of a benchmark is on 127.0.0.1: the share per address is for strangers
        // on the internet, and would cap the load a benchmark offers at 64 connections.
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: threads,
                                                                   maxConnectionsPerAddress: HTTPServerConfiguration.defaultMaxConnections),
                            router: LedgerAPI.router(context), logger: logger, metrics: metrics)
        try server.start()
    }

    var port: Int { server.port }

    func shutdown() {
        server.shutdown(gracePeriod: 5)
        context.stop()
        store.close()
    }
}
