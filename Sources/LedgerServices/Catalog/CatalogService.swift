import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Observability
import Postgres
import ProjectionEngine
import Projections
import Synchronization

/// The catalog endpoint's memory: the last snapshot of the IAP projection, reloaded when the
/// projector says the projection moved (LISTEN), and the offer impressions counted since
/// the last flush, appended as one event per app every second. With read replicas the
/// snapshot follows the replica furthest on instead (a standby cannot LISTEN: its
/// position is polled), and the primary only while no replica is in rotation.
///
/// A request therefore costs no database round trip unless it names a user (whose
/// purchases are read). The background thread starts with the first request and stops
/// with `stop()`, which flushes what was counted.
public final class CatalogService: Sendable {
    private struct State: Sendable {
        var snapshot = CatalogSnapshot.empty
        var impressions: [String: [ImpressionKey: Int64]] = [:]
        /// A flush whose append failed: retried, under the same key, before anything new,
        /// so that counts whose append may have committed are never counted twice.
        var unsent: (key: String, counts: [String: [ImpressionKey: Int64]])?
        var flushes = 0
        var started = false
        var stopping = false
        var stopped = false
    }

    struct ImpressionKey: Hashable, Sendable {
        var campaignID: String
        var variantID: Int64?
    }

    private let state = Mutex(State())
    private let connections: PostgresPool
    private let replicas: ReplicaSet?
    private let store: EventStore
    private let logger: Logger
    /// Reloads at least this often, in case a notification was missed or a replay swapped
    /// the projection in without moving its position.
    let fullReloadInterval: Double
    let flushInterval: Double
    private let reloads: Counter
    /// Names this process's flushes in their idempotency keys.
    private let flushPrefix = SecureRandom.uuid().uuidString.lowercased()
    private let impressions: Counter

    public init(connections: PostgresPool, store: EventStore, logger: Logger, metrics: MetricsRegistry,
                fullReloadInterval: Double = 30, flushInterval: Double = 1, replicas: ReplicaSet? = nil) {
        self.connections = connections
        self.replicas = replicas
        self.store = store
        self.logger = logger
        self.fullReloadInterval = fullReloadInterval
        self.flushInterval = flushInterval
        reloads = metrics.counter("ledger_catalog_reloads_total", help: "Reloads of the in-memory IAP catalog by cause.",
                                  labelNames: ["cause"])
        impressions = metrics.counter("ledger_offer_impressions_total", help: "Campaign offers served (demo previews excluded).")
        metrics.gauge("ledger_catalog_position", help: "Position of the IAP projection the in-memory catalog reflects.") { [weak self] in
            guard let position = self?.position, position >= 0 else { return nil }
            return Double(position)
        }
    }

    /// The app and mode of a publishable key (`X-ZeroSettle-Key`), from the snapshot in
    /// memory: unknown (or of a form no key has), revoked, or of a disabled app, it is
    /// refused. The first call loads the snapshot.
    public func authenticate(publishableKey text: String) throws -> PublishableKeyCheck {
        guard KeyMode.allCases.contains(where: { text.hasPrefix($0.prefix) }), text.utf8.count <= 200 else { return .unknown }
        let snapshot = try snapshot()
        guard let key = snapshot.keys[Hex.encode(SHA256.hash(Array(text.utf8)))], let app = snapshot.apps[key.appID],
              text.hasPrefix(key.mode.prefix) else { return .unknown }
        if key.revoked { return .revoked }
        if !app.enabled { return .disabledApp }
        return .valid(app: app, mode: key.mode)
    }

    /// The current snapshot; the first call loads it and starts the background thread.
    func snapshot() throws -> CatalogSnapshot {
        let (current, mustStart) = state.withLock { s -> (CatalogSnapshot, Bool) in
            defer { s.started = true }
            return (s.snapshot, !s.started)
        }
        guard mustStart || current.position < 0 else { return current }
        let loaded = try CatalogSnapshot.load(connections: replicas?.freshest(projection: CatalogProjection().name)?.replica.connections ?? connections)
        state.withLock { s in if loaded.position >= s.snapshot.position { s.snapshot = loaded } }
        if mustStart {
            let thread = Thread { [self] in self.run() }
            thread.name = "catalog-cache"
            thread.start()
        }
        return loaded
    }

    /// The position the snapshot in memory reflects (-1 before the first load).
    public var position: Int64 { state.withLock { $0.snapshot.position } }

    /// Waits until the snapshot in memory reflects `position` of the IAP projection: for tests and
    /// benchmarks that configure the catalog and then read it.
    public func waitUntilCurrent(position target: Int64, timeout: Double = 20) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        _ = try snapshot()
        while Date() < deadline {
            if state.withLock({ $0.snapshot.position }) >= target { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    /// Counts one offer served (flushed to the log within `flushInterval`).
    public func count(app: String, campaign: String, variant: Int64?) {
        impressions.increment()
        state.withLock { s in s.impressions[app, default: [:]][ImpressionKey(campaignID: campaign, variantID: variant), default: 0] += 1 }
    }

    /// Flushes the impressions and stops the background thread (waits for it briefly).
    public func stop() {
        let running = state.withLock { s -> Bool in
            s.stopping = true
            return s.started && !s.stopped
        }
        let deadline = Date().addingTimeInterval(5)
        while running && !state.withLock({ $0.stopped }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        flush()
    }

    /// Appends what was counted: one `iap.offer_impressions_counted` per app, under an
    /// idempotency key of this process's flush. A failed append is retried under the same
    /// key at the next flush; new counts wait for it.
    public func flush() {
        let batch = state.withLock { s -> (key: String, counts: [String: [ImpressionKey: Int64]])? in
            if let unsent = s.unsent { return unsent }
            guard !s.impressions.isEmpty else { return nil }
            s.flushes += 1
            s.unsent = ("impressions:\(flushPrefix):\(s.flushes)", s.impressions)
            s.impressions = [:]
            return s.unsent
        }
        guard let batch else { return }
        let events = batch.counts.keys.sorted().flatMap { app in
            let counts = batch.counts[app]!.sorted { ($0.key.campaignID, $0.key.variantID ?? -1) < ($1.key.campaignID, $1.key.variantID ?? -1) }
                .map { OfferImpressionsCounted.Count(campaignID: $0.key.campaignID, variantID: $0.key.variantID, count: $0.value) }
            return CatalogDecider.countImpressions(appID: app, counts: counts).events
                .map { EventToAppend($0, metadata: EventMetadata(actor: Actor(.service, "catalog"))) }
        }
        do {
            _ = try store.append(AppendRequest(events: events, idempotencyKey: batch.key))
            state.withLock { $0.unsent = nil }
        } catch {
            logger.warning("offer impressions not recorded yet; retried at the next flush", ["error": .string(String(describing: error))])
        }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        defer { state.withLock { $0.stopped = true } }
        var listener: PostgresConnection?
        var lastReload = Date()
        var lastFlush = Date()
        while !isStopping {
            do {
                if listener == nil {
                    let connection = try PostgresConnection(conninfo: connections.directConninfo)
                    try connection.listen(Projector.notificationChannel)
                    listener = connection
                    try reload(from: replicas?.freshest(projection: CatalogProjection().name)?.replica.connections ?? connections,
                               cause: "connected")   // what moved while nobody listened
                    lastReload = Date()
                }
                let notes = try listener!.waitForNotifications(timeout: min(flushInterval, replicas == nil ? 0.25 : 0.1))
                let notified = notes.contains { $0.payload.hasPrefix("iap:") }
                if let (replica, reached) = replicas?.freshest(projection: CatalogProjection().name) {
                    if reached > position || Date().timeIntervalSince(lastReload) >= fullReloadInterval {
                        try reload(from: replica.connections, cause: "replica")
                        lastReload = Date()
                    }
                } else if notified || Date().timeIntervalSince(lastReload) >= fullReloadInterval {
                    try reload(from: connections, cause: notified ? "notified" : "periodic")
                    lastReload = Date()
                }
            } catch {
                logger.warning("catalog cache: lost the database; retrying", ["error": .string(String(describing: error))])
                listener = nil
                Thread.sleep(forTimeInterval: 0.5)
            }
            if Date().timeIntervalSince(lastFlush) >= flushInterval {
                flush()
                lastFlush = Date()
            }
        }
        listener = nil   // closed before `stop()` returns, so that the database can be dropped
    }

    /// A snapshot never goes back: a replica behind the one read before is not followed.
    private func reload(from source: PostgresPool, cause: String) throws {
        reloads.increment(labels: ["cause": cause])
        let loaded = try CatalogSnapshot.load(connections: source)
        state.withLock { s in if loaded.position >= s.snapshot.position || source === connections { s.snapshot = loaded } }
    }
}
