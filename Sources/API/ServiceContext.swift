import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerServices
import Observability
import Postgres
import ProjectionEngine
import Projections
import Stripe

/// Everything an endpoint may use: injected at start-up, so that tests build the same
/// service against their own database. The composition root of the API: the one file of
/// it that builds the service's parts. Building it starts nothing; `start()` starts its
/// threads (the catalog cache, the projection follower, the replica polls, the readiness
/// monitor) and `stop()` stops them.
public final class ServiceContext: Sendable {
    public let store: EventStore
    public let connections: PostgresPool
    public let logger: Logger
    public let metrics: MetricsRegistry
    public let migrations: [Migration]
    public let projections: [any Projection]
    /// Projector lag, in events, above which `/readyz` answers 503.
    public let readyMaxLag: Int64
    /// Signs journal cursors (LEDGER_CURSOR_SECRET).
    public let cursorSecret: [UInt8]
    /// The request's clock, injected so that tests can set the time.
    public let now: LedgerClock
    /// Secret keys that verified in the last minute: the server's admission counts their
    /// requests apart from their address's (never an authorization).
    public let verifiedKeys: VerifiedKeys
    /// The App Store surfaces' configuration (bundle, products, sessions, school domains).
    public let appStore: AppStoreSettings
    /// The IAP catalog in memory, and the offer impressions to record.
    public let catalog: CatalogService
    /// The promotional offer keys, by bundle ID (LEDGER_APPSTORE_OFFER_KEYS), and the rules
    /// of signing with them.
    public let offerSigning: PromotionalOfferSigning
    /// The apps whose Stripe webhooks are verified here, with their endpoint secrets
    /// (LEDGER_STRIPE_WEBHOOK_SECRETS).
    public let stripeWebhooks: StripeWebhookEndpoints
    /// How far the projections and the log have got; wakes requests waiting for a position.
    public let progress: ProjectionProgress
    /// Usage writes admitted while the billing projection keeps up (docs/architecture.md,
    /// "Admission").
    public let admission: AdmissionControl
    /// Readiness and the log's gauges, checked in the background.
    let monitor: ServiceMonitor
    /// The read replicas (`LEDGER_READ_DATABASE_URLS`), nil without any.
    public let replicas: ReplicaSet?
    /// LEDGER_PUBLIC_CHECKPOINTS: the log's checkpoints answer without a key.
    public let publicCheckpoints: Bool
    /// The Merkle tree's upper nodes, which every proof shares (immutable once written).
    public let merkleNodes = MerkleNodeCache()
    /// Reads by where they were served (`primary`, `replica-1`, …).
    let readCounter: Counter
    /// N8: notifications per client address.
    let notificationLimiter: RateLimiter
    /// Stripe webhooks that do not verify, per client address.
    let stripeLimiter: RateLimiter
    /// Stripe webhooks by outcome (`recorded`, `duplicate`, or the refusal's code).
    let stripeWebhookCounter: Counter
    let appendCounter: Counter
    /// App Store JWS verifications by kind (`transaction`, `notification`) and outcome
    /// (`verified`, or the refusal's `AppStoreError` code).
    let appStoreVerifications: Counter

    public init(store: EventStore, connections: PostgresPool, logger: Logger, metrics: MetricsRegistry,
                migrations: [Migration], projections: [any Projection] = AllProjections.all, readyMaxLag: Int64 = 10_000,
                cursorSecret: [UInt8], now: @escaping LedgerClock = SystemClock.now,
                verifiedKeys: VerifiedKeys = VerifiedKeys(), appStore: AppStoreSettings = AppStoreSettings(sessionSecret: []),
                readinessInterval: Double = 1, readReplicaURLs: [String] = [],
                replicaSettings: ReplicaSet.Settings = ReplicaSet.Settings(), publicCheckpoints: Bool = false,
                appStoreSyncEvery: Double = 3_600, offerSigning: PromotionalOfferSigning = PromotionalOfferSigning(),
                stripeWebhooks: StripeWebhookEndpoints = StripeWebhookEndpoints(), stripeSyncEvery: Double = 3_600,
                driftCheckEvery: Double = ProjectionDriftCheck.Settings.defaultEvery,
                admission: AdmissionControl.Settings = AdmissionControl.Settings()) {
        self.store = store
        self.connections = connections
        self.logger = logger
        self.metrics = metrics
        self.migrations = migrations
        self.projections = projections
        self.readyMaxLag = readyMaxLag
        self.cursorSecret = cursorSecret
        self.now = now
        self.verifiedKeys = verifiedKeys
        self.publicCheckpoints = publicCheckpoints
        self.appStore = appStore
        self.offerSigning = offerSigning
        self.notificationLimiter = RateLimiter(perSecond: appStore.notificationsPerSecond)
        self.stripeWebhooks = stripeWebhooks
        self.stripeLimiter = RateLimiter(perSecond: appStore.notificationsPerSecond)
        let progress = ProjectionProgress(conninfo: connections.directConninfo, projections: projections, logger: logger)
        self.progress = progress
        let admissionControl = AdmissionControl(settings: admission) { progress.load(of: $0) }
        self.admission = admissionControl
        // The heads this process commits count at once (admission's backlog must hold an
        // append from the moment it leaves the in-flight count).
        store.observeCommits { progress.committed(head: $0) }
        progress.observe { projection, _ in
            admissionControl.folded(projection: projection)
            progress.setOthersWaiting(admissionControl.parked > 0)
        }
        let replicas = readReplicaURLs.isEmpty ? nil
            : ReplicaSet(urls: readReplicaURLs, poolSize: connections.maximumConnections, projections: projections, settings: replicaSettings,
                         logger: logger, primaryHead: { progress.head })
        self.replicas = replicas
        self.catalog = CatalogService(connections: connections, store: store, logger: logger, metrics: metrics, replicas: replicas)
        self.monitor = ServiceMonitor(interval: readinessInterval) { [connections, migrations, projections, readyMaxLag, now, stripeSyncEvery, driftCheckEvery] in
            Readiness.check(connections: connections, migrations: migrations, projections: projections, readyMaxLag: readyMaxLag, replicas: replicas,
                            appStoreSyncEvery: appStoreSyncEvery, stripeSyncEvery: stripeSyncEvery, driftCheckEvery: driftCheckEvery, now: now)
        }
        self.readCounter = metrics.counter("ledger_reads_total", help: "Read requests by where they were served: the primary or a replica.",
                                           labelNames: ["target"])
        self.appendCounter = metrics.counter("ledger_appends_total", help: "Appends to the event log by result.",
                                             labelNames: ["result"])
        self.stripeWebhookCounter = metrics.counter("ledger_stripe_webhooks_total",
            help: "Stripe webhooks by outcome: recorded, duplicate, or the refusal's code.", labelNames: ["outcome"])
        self.appStoreVerifications = metrics.counter("ledger_appstore_verifications_total",
            help: "App Store JWS verifications by kind and outcome.", labelNames: ["kind", "outcome"])
        Self.registerLogMetrics(metrics, monitor: monitor)
        Self.registerAdmissionMetrics(metrics, admission: admissionControl, foldRate: { progress.foldRate })
        Self.registerReplicaMetrics(metrics, replicas: replicas)
    }

    /// The shared acts, on the service's pools and clock, each append counted.
    public var acts: ActRunner { ActRunner(store: store, connections: connections, now: now, observe: { [self] in count($0) }) }

    /// Appends and waits on this thread, counting the outcome as a request's append is
    /// counted: for work outside a request handler (tools, tests), never in one.
    public func appendAndWait(_ request: AppendRequest) throws(AppendError) -> AppendResult {
        let result = Result { () throws(AppendError) -> AppendResult in try store.append(request) }
        count(result)
        return try result.get()
    }

    private func count(_ result: Result<AppendResult, AppendError>) {
        switch result {
        case .success(let r): appendCounter.increment(labels: ["result": r.replayed ? "replayed" : "appended"])
        case .failure(let e): appendCounter.increment(labels: ["result": e.code.rawValue])
        }
    }

    /// Starts the background threads: the projection follower, the replica polls, the
    /// readiness monitor (the catalog's cache starts itself on first use).
    public func start() {
        progress.start()
        replicas?.start()
        monitor.start()
    }

    /// Stops the background threads; the catalog records the impressions counted since
    /// its last flush.
    public func stop() {
        catalog.stop()
        progress.stop()
        monitor.stop()
        replicas?.stop()
    }

    /// Each replica's lag and whether it serves reads, from its last poll. Registered
    /// without replicas too (no samples), so that a dashboard's queries name families
    /// every instance exports.
    private static func registerReplicaMetrics(_ metrics: MetricsRegistry, replicas: ReplicaSet?) {
        let statuses: @Sendable () -> [ReplicaStatus] = { replicas?.statuses ?? [] }
        metrics.gauge("ledger_replica_lag_events", help: "Positions each read replica is behind the primary's head.",
                      labelNames: ["replica"]) {
            statuses().compactMap { s in s.lagEvents.map { MetricSample(labels: ["replica": s.name], value: Double($0)) } }
        }
        metrics.gauge("ledger_replica_lag_seconds", help: "Seconds of received WAL each read replica has yet to replay.",
                      labelNames: ["replica"]) {
            statuses().compactMap { s in s.lagSeconds.map { MetricSample(labels: ["replica": s.name], value: $0) } }
        }
        metrics.gauge("ledger_replica_in_rotation", help: "1 while a read replica serves reads.", labelNames: ["replica"]) {
            statuses().map { MetricSample(labels: ["replica": $0.name], value: $0.inRotation ? 1 : 0) }
        }
    }

    /// From the monitor's last check, so that a scrape never waits for the database.
    private static func registerLogMetrics(_ metrics: MetricsRegistry, monitor: ServiceMonitor) {
        metrics.gauge("ledger_checkpoint_size", help: "Events covered by the last signed checkpoint of the log.") {
            monitor.readiness.checkpoint.map { Double($0.size) }
        }
        metrics.gauge("ledger_checkpoint_age_seconds", help: "Seconds since the last signed checkpoint of the log was signed.") {
            monitor.readiness.checkpoint.map { (Double(SystemClock.now().microseconds - $0.timeMicroseconds) / 1e6).rounded() }
        }
        metrics.gauge("ledger_log_head_position", help: "Highest committed position of the event log.") {
            monitor.projectionStatus.map { Double($0.head) }
        }
        metrics.gauge("ledger_projection_position", help: "Position each projection has applied.", labelNames: ["projection"]) {
            monitor.projectionStatus?.items.map {
                MetricSample(labels: ["projection": $0.name], value: Double($0.position))
            } ?? []
        }
        metrics.gauge("ledger_projection_lag_events", help: "Events between the log's head and each projection.",
                      labelNames: ["projection"]) {
            guard let status = monitor.projectionStatus else { return [] }
            return status.items.map { MetricSample(labels: ["projection": $0.name], value: Double(status.head - $0.position)) }
        }
        metrics.gauge("ledger_projection_failed", help: "1 when a projection stopped on a poison event.",
                      labelNames: ["projection"]) {
            monitor.projectionStatus?.items.map {
                MetricSample(labels: ["projection": $0.name], value: $0.failedPosition == nil ? 0 : 1)
            } ?? []
        }
        metrics.gauge("ledger_ready", help: "1 when /readyz answers 200.") { monitor.readiness.ready ? 1 : 0 }
        registerAppStoreSyncMetrics(metrics, monitor: monitor)
        registerStripeSyncMetrics(metrics, monitor: monitor)
        registerDriftCheckMetrics(metrics, monitor: monitor)
    }
}
