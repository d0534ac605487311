import EventStore
import Foundation
import HTTP
import LedgerDomain
import Observability
import Postgres
import Projections

/// Everything an endpoint may use: injected at start-up, so that tests build the same
/// service against their own database.
public struct ServiceContext: Sendable {
    public var store: EventStore
    public var pool: PostgresPool
    public var logger: Logger
    public var metrics: MetricsRegistry
    public var migrations: [Migration]
    public var projections: [any Projection]
    /// Projector lag, in events, above which `/readyz` answers 503.
    public var readyMaxLag: Int64
    /// Signs journal cursors (LEDGER_CURSOR_SECRET).
    public var cursorSecret: [UInt8]
    /// The request's clock, injected so that tests can set the time.
    public var now: @Sendable () -> Timestamp
    /// Recently authenticated keys (a revoked key stops working within its lifetime).
    public var keyCache: KeyCache
    /// The App Store surfaces' configuration (bundle, products, sessions, school domains).
    public var appStore: AppStoreSettings
    /// The IAP catalog in memory, and the offer impressions to record; `stop()` it.
    public let catalog: CatalogService
    /// N8: notifications per client address.
    let notificationLimiter: RateLimiter
    let appendCounter: Counter

    public init(store: EventStore, pool: PostgresPool, logger: Logger, metrics: MetricsRegistry,
                migrations: [Migration], projections: [any Projection] = AllProjections.all, readyMaxLag: Int64 = 10_000,
                cursorSecret: [UInt8], now: @escaping @Sendable () -> Timestamp = ServiceContext.systemClock,
                keyCache: KeyCache = KeyCache(), appStore: AppStoreSettings = AppStoreSettings(sessionSecret: [])) {
        self.store = store
        self.pool = pool
        self.logger = logger
        self.metrics = metrics
        self.migrations = migrations
        self.projections = projections
        self.readyMaxLag = readyMaxLag
        self.cursorSecret = cursorSecret
        self.now = now
        self.keyCache = keyCache
        self.appStore = appStore
        self.notificationLimiter = RateLimiter(perSecond: appStore.notificationsPerSecond)
        self.catalog = CatalogService(pool: pool, store: store, logger: logger, metrics: metrics)
        self.appendCounter = metrics.counter("ledger_appends_total", help: "Appends to the event log by result.",
                                             labelNames: ["result"])
        Self.registerLogMetrics(metrics, pool: pool, projections: projections)
    }

    /// The machine's clock, at microsecond precision.
    public static let systemClock: @Sendable () -> Timestamp = {
        Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)) ?? .minimum
    }

    /// Appends on behalf of a request, counting the outcome.
    public func append(_ request: AppendRequest) throws(AppendError) -> AppendResult {
        do {
            let result = try store.append(request)
            appendCounter.increment(labels: ["result": result.replayed ? "replayed" : "appended"])
            return result
        } catch {
            appendCounter.increment(labels: ["result": error.code.rawValue])
            throw error
        }
    }

    private static func registerLogMetrics(_ metrics: MetricsRegistry, pool: PostgresPool, projections: [any Projection]) {
        metrics.gauge("ledger_log_head_position", help: "Highest committed position of the event log.") {
            (try? pool.read { try EventStore.headPosition(on: $0) }).map(Double.init)
        }
        metrics.gauge("ledger_projection_position", help: "Position each projection has applied.", labelNames: ["projection"]) {
            (try? ProjectionStatus.read(projections, pool: pool))?.items.map {
                MetricSample(labels: ["projection": $0.name], value: Double($0.position))
            } ?? []
        }
        metrics.gauge("ledger_projection_lag_events", help: "Events between the log's head and each projection.",
                      labelNames: ["projection"]) {
            guard let status = try? ProjectionStatus.read(projections, pool: pool) else { return [] }
            return status.items.map { MetricSample(labels: ["projection": $0.name], value: Double(status.head - $0.position)) }
        }
        metrics.gauge("ledger_projection_failed", help: "1 when a projection stopped on a poison event.",
                      labelNames: ["projection"]) {
            (try? ProjectionStatus.read(projections, pool: pool))?.items.map {
                MetricSample(labels: ["projection": $0.name], value: $0.failedPosition == nil ? 0 : 1)
            } ?? []
        }
    }
}
