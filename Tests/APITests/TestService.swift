import API
import AppStore
@testable import BenchHTTP
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices
import Observability
import Postgres
import ProjectionEngine
import Projections
import Stripe
import Synchronization
import TestSupport

/// The real HTTP server with the real router, on an ephemeral port, over a fresh database.
final class TestService: Sendable {
    let db: TestDatabase
    /// The tests' own writer (any event type), for setting up what the service reads.
    let store: EventStore
    /// The service's, on the API's login.
    let serviceStore: EventStore
    let server: HTTPServer
    /// The operations listener (`ledger serve`'s LEDGER_METRICS_ADDRESS): metrics and the
    /// readiness in full, which the public server does not serve.
    let operations: HTTPServer
    let logs = MemoryLogSink()
    let context: ServiceContext
    static let sessionSecret = Array("test-session-secret-shared-with-identity".utf8)
    static let origin = "https://app.test"

    /// The service's clock; tests move it.
    let clock = ManualClock()

    /// `database`: one of a test's own cluster (default: a new one on the test command's);
    /// `readReplicaURLs`: hot standbys of it for the read endpoints; `offerSigners`: the
    /// promotional offer keys (LEDGER_APPSTORE_OFFER_KEYS), none by default.
    init(projections: [any Projection] = AllProjections.all, notificationsPerSecond: Double = 1_000, database: TestDatabase? = nil,
         readReplicaURLs: [String] = [], replicaSettings: ReplicaSet.Settings = ReplicaSet.Settings(),
         offerSigners: [PromotionalOfferSigner] = [], stripeSecrets: [String: [String]] = [:],
         admission: AdmissionControl.Settings = AdmissionControl.Settings(), appendFaults: AppendFaults = .none) throws {
        db = try database ?? TestDatabase.create()
        // The tests set up through the writer login; the service runs as the API's login,
        // which may append only the API's event types (migration 0013), so every endpoint
        // these tests drive proves it appends nothing else.
        store = EventStore(conninfo: db.writerURL, connections: PostgresPool(conninfo: db.writerURL, maximumConnections: 2))
        let pool = PostgresPool(conninfo: db.apiURL, maximumConnections: 4)
        serviceStore = EventStore(conninfo: db.apiURL, connections: pool, faults: appendFaults)
        let logger = Logger(minimumLevel: .debug, sink: logs)
        let metrics = MetricsRegistry()
        context = ServiceContext(store: serviceStore, connections: pool, logger: logger, metrics: metrics,
                                 migrations: try Migration.load(from: TestDatabase.migrationsDirectory),
                                 projections: projections, readyMaxLag: 100,
                                 cursorSecret: Array("test-cursor-secret-of-at-least-32-bytes".utf8), now: clock.read,
                                 appStore: AppStoreSettings(sessionSecret: TestService.sessionSecret, publicOrigin: TestService.origin,
                                                            notificationsPerSecond: notificationsPerSecond,
                                                            policy: TestCertificateAuthority.shared.developmentPolicy),
                                 readinessInterval: 0.05, readReplicaURLs: readReplicaURLs, replicaSettings: replicaSettings,
                                 offerSigning: PromotionalOfferSigning(signers: offerSigners),
                                 stripeWebhooks: StripeWebhookEndpoints(secrets: stripeSecrets), admission: admission)
        context.start()
        server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4, admissionClient: context.admissionClient),
                            router: LedgerAPI.router(context), logger: logger, metrics: metrics)
        try server.start()
        operations = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 1), router: LedgerAPI.operationsRouter(context),
                                logger: logger)
        try operations.start()
    }

    func client() throws -> HTTPClient { try HTTPClient(host: "127.0.0.1", port: server.port) }

    func get(_ path: String, headers: [(String, String)] = []) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        try client().send(method: "GET", path: path, headers: headers)
    }

    func json(_ path: String) throws -> (Int, JSONValue) {
        let response = try get(path)
        return (response.status, try JSONValue.parse(response.body))
    }

    /// A GET on the operations listener.
    func operationsGet(_ path: String) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        try HTTPClient(host: "127.0.0.1", port: operations.port).send(method: "GET", path: path)
    }

    /// A GET on the operations listener, its body as JSON.
    func operationsJSON(_ path: String) throws -> (Int, JSONValue) {
        let response = try operationsGet(path)
        return (response.status, try JSONValue.parse(response.body))
    }

    func shutdown() {
        operations.shutdown(gracePeriod: 0)
        server.shutdown(gracePeriod: 5)
        context.stop()
        serviceStore.close()
        store.close()
        db.drop()
    }
}
