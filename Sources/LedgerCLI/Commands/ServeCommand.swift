import API
import EventStore
import Foundation
import HTTP
import LedgerServices
import Observability
import Postgres
import Projections
import Stripe

/// `ledger serve`: the HTTP API.
public enum ServeCommand: LedgerCommand {
    public static let name = "serve"
    public static let summary = "Run the HTTP API (catalog, billing, App Store surfaces, health, OpenAPI; metrics on the operations listener)."
    public static let usage = """
        usage: ledger serve

        Serves the HTTP API on LEDGER_HOST:LEDGER_PORT over DATABASE_URL. Does not migrate
        (run `ledger migrate`) and does not project (run `ledger project`): /readyz answers
        503 until both are done. On SIGTERM or SIGINT it stops accepting connections, lets
        requests in flight finish (up to LEDGER_SHUTDOWN_GRACE seconds) and exits.

        The metrics and readiness in full (the log's positions, the replicas) are on the
        operations listener, LEDGER_METRICS_ADDRESS (default 127.0.0.1:9464, or off); the
        public /readyz says only ready or not, and why. In production it refuses to start
        (secret_held_by_wrong_process) when its environment holds another process's
        secret: LEDGER_CHECKPOINT_KEY_FILE, LEDGER_PROJECTOR_DATABASE_URL or
        LEDGER_WEBHOOK_KEY, which are `ledger project`'s (docs/security.md). The operator
        console is a process of its own: `ledger console`. With LEDGER_APPSTORE_OFFER_KEYS
        it signs StoreKit's promotional offers (docs/appstore.md).
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        _ = try Arguments(arguments, valued: [])
        SignalWatcher.shared.install()
        let logger = try environment.logger(component: "api")
        try environment.announceProfile(logger)
        try SecretPlacement.checkServe(environment, logger: logger)
        let service = try Service(environment: environment, logger: logger)
        try service.start()
        SignalWatcher.shared.waitForStop()
        logger.info("stopping: finishing requests in flight")
        service.stop(gracePeriod: try environment.double(.shutdownGrace))
        logger.info("stopped")
        return 0
    }
}

/// The API process's parts, wired from the environment.
struct Service {
    let server: HTTPServer
    /// `/metrics` and the readiness in full, on a listener of their own (LEDGER_METRICS_ADDRESS).
    let operations: SideListener?
    let store: EventStore
    let context: ServiceContext
    let logger: Logger
    let host: String

    init(environment: LedgerEnvironment, logger: Logger) throws {
        let url = try environment.serviceDatabaseURL()
        let metrics = MetricsRegistry()
        let offerSigning = PromotionalOfferSigning(signers: try environment.promotionalOfferSigners())
        if !offerSigning.bundleIDs.isEmpty {
            logger.info("promotional offer keys", ["bundle_ids": .string(offerSigning.bundleIDs.joined(separator: ","))])
        }
        let stripeWebhooks = try environment.stripeWebhookEndpoints()
        if !stripeWebhooks.secrets.isEmpty {
            logger.info("stripe webhook endpoints", ["app_ids": .string(stripeWebhooks.secrets.keys.sorted().joined(separator: ","))])
        }
        let connections = try environment.databasePool(url, maximumConnections: try environment.int(.poolSize))
        // The appender's one connection goes straight to PostgreSQL: it keeps session
        // settings and plans, and a lost commit is settled by its server process.
        store = EventStore(conninfo: connections.directConninfo, connections: connections)
        context = ServiceContext(store: store, connections: connections, logger: logger, metrics: metrics,
                                     migrations: try environment.migrations(), projections: AllProjections.all,
                                     readyMaxLag: Int64(try environment.int(.readyMaxLag)),
                                     cursorSecret: try environment.cursorSecret(logger: logger),
                                     appStore: try environment.appStoreSettings(logger: logger),
                                     readReplicaURLs: try environment.readReplicaURLs(),
                                     replicaSettings: ReplicaSet.Settings(maxLagEvents: Int64(try environment.int(.readMaxLagEvents)),
                                                                          maxLagSeconds: try environment.positiveSeconds(.readMaxLagSeconds)),
                                     publicCheckpoints: try environment.publicCheckpoints(),
                                     appStoreSyncEvery: try environment.appStoreSyncSettings().every, offerSigning: offerSigning,
                                     stripeWebhooks: stripeWebhooks, stripeSyncEvery: try environment.stripeSyncSettings().every,
                                     driftCheckEvery: try environment.driftCheckSettings().every,
                                     admission: try environment.admissionSettings())
        // The context's threads (the projection follower, the readiness monitor, the replica
        // polls) start in `start()`, once every setting is read and every listener bound: a
        // refusal before then exits with no thread in the middle of a database login, whose
        // TLS and SCRAM the process's exit would tear down under it (a spurious "database
        // unreachable … OpenSSL" warning, or a crash, after the refusal).
        host = try environment.require(.host)
        var configuration = try environment.serverConfiguration(host: host, port: try environment.int(.port))
        configuration.admissionClient = context.admissionClient
        server = HTTPServer(configuration: configuration, router: LedgerAPI.router(context), logger: logger, metrics: metrics)
        if environment.string(.consoleAddress) != nil {
            // Not an error: the setting is `ledger console`'s now, and the same environment
            // may well serve both.
            logger.info("the console is not served here: it runs as its own process, `ledger console`, on LEDGER_CONSOLE_ADDRESS with a login of its own (docs/console.md)")
        }
        operations = try SideListener.operations(environment: environment, context: context, publicConfiguration: configuration,
                                                 consoleAddress: try environment.consoleAddress(), logger: logger)
        self.logger = logger
    }

    func start() throws {
        try server.start()
        do {
            try operations?.start(logger: logger)
        } catch {
            server.shutdown(gracePeriod: 0)
            throw error
        }
        context.start()
        logger.info("listening", ["url": .string("http://\(host):\(server.port)")])
    }

    func stop(gracePeriod: Double) {
        operations?.stop()
        server.shutdown(gracePeriod: gracePeriod)
        context.stop()   // the catalog records the impressions counted since the last flush
        store.close()
    }
}
