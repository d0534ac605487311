import EventStore
import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections

/// Readiness in full: what the operations listener's `/readyz` answers (positions, lag,
/// replicas, the last checkpoint). The public port shows only `PublicReadiness`, its status
/// and `reason`, which name no position (docs/security.md, "Health without the map").
public struct Readiness: Sendable, Encodable {
    public struct Check: Sendable, Codable {
        public var ok: Bool
        public var detail: String?
    }

    public struct Checks: Sendable, Codable {
        public var database: Check
        public var migrations: Check
        public var projections: Check
    }

    public var ready: Bool
    public var status: String
    /// Why, in words and without a number: what the public `/readyz` says too.
    public var reason: String
    public var checks: Checks
    public var head: Int64?
    public var projections: [ProjectionStatus.Item]
    /// Each read replica, its lag and whether it serves reads; absent without replicas. A
    /// replica out of rotation does not make the service unready: the primary serves.
    public var replicas: [ReplicaStatus]?
    /// The last signed checkpoint of the log (docs/audit.md); absent until one is signed. Its
    /// age never makes the service unready: the API serves without it.
    public var checkpoint: CheckpointStatus?
    /// The App Store notification history sync of each app (docs/appstore.md, "Recovery");
    /// absent until one ran. Overdue is a warning, never unreadiness.
    public var appStoreSync: AppStoreSyncStatus?
    /// The Stripe events sync of each app (docs/web-checkout.md); absent until one ran.
    /// Overdue is a warning, never unreadiness.
    public var stripeSync: StripeSyncStatus?
    /// The drift check of each projection that has one (docs/operations.md, "Drift"): the
    /// accounts whose live rows differ from the log's fold; absent until a check ran.
    /// Drift is a warning naming each account, never unreadiness.
    public var drift: DriftStatus?
    /// What an operator should look at although the service is ready.
    public var warnings: [String]?

    enum CodingKeys: String, CodingKey {
        case ready, status, reason, checks, head, projections, replicas, checkpoint, appStoreSync = "appstore_sync", stripeSync = "stripe_sync", drift = "drift_check", warnings
    }

    public struct CheckpointStatus: Sendable, Encodable {
        public var position: Int64
        public var size: Int64
        public var time: String
        /// Microseconds since the epoch, for the age metric.
        public var timeMicroseconds: Int64
        enum CodingKeys: String, CodingKey { case position, size, time }
    }

    /// Not ready, for a reason found outside the checks (no check has completed): `detail`
    /// for operators, `reason` in words for everyone.
    public static func unknown(_ detail: String, reason: String) -> Readiness {
        let check = Check(ok: false, detail: detail)
        return Readiness(ready: false, status: "not_ready", reason: reason,
                         checks: Checks(database: check, migrations: check, projections: check),
                         head: nil, projections: [], replicas: nil, checkpoint: nil, appStoreSync: nil, stripeSync: nil, drift: nil, warnings: nil)
    }

    /// The reasons in words, one per way of being (not) ready. Each is a fixed sentence: no
    /// position, lag, name or error text, since the public port shows it to anyone.
    public enum Reason {
        public static let ready = "the database answers, the migrations are current and the projections are caught up"
        public static let notCheckedYet = "the first readiness check has not completed yet"
        public static let databaseUnavailable = "the database does not answer"
        public static let migrationPending = "a migration is pending"
        public static let migrationsMismatch = "the database's migrations do not match this release"
        public static let projectionStopped = "a projection stopped on an event it cannot apply"
        public static let projectionMissing = "a projection is not created yet: the projector has not run"
        public static let projectionsBehind = "the projections are catching up with the log"
    }

    /// Readiness, and the projection status it was judged on (nil when unreachable).
    public static func check(connections: PostgresPool, migrations expected: [Migration], projections all: [any Projection],
                      readyMaxLag: Int64, replicas: ReplicaSet? = nil, appStoreSyncEvery: Double = 3_600,
                      stripeSyncEvery: Double = 3_600, driftCheckEvery: Double = ProjectionDriftCheck.Settings.defaultEvery,
                      now: LedgerClock = SystemClock.now) -> (Readiness, ProjectionStatus?) {
        var database = Check(ok: true)
        var migrations = Check(ok: true)
        var projections = Check(ok: true)
        var status: ProjectionStatus?
        var checkpoint: CheckpointStatus?
        var appStoreSync: AppStoreSyncStatus?
        var stripeSync: StripeSyncStatus?
        var drift: DriftStatus?
        var reason = Reason.ready
        do {
            let pending = try connections.read { connection in
                try Migrator(migrations: expected).status(on: connection).pending
            }
            if !pending.isEmpty {
                migrations = Check(ok: false, detail: "pending: " + pending.map { "\($0.version)_\($0.name)" }.joined(separator: ", "))
                reason = Reason.migrationPending
            }
            status = try ProjectionStatus.read(all, connections: connections)
            checkpoint = try MerkleReadModel(connections: connections).latestCheckpoint().map {
                CheckpointStatus(position: $0.position, size: $0.checkpoint.size, time: $0.checkpoint.time.iso8601,
                                 timeMicroseconds: $0.checkpoint.time.microseconds)
            }
            // Never a reason to be unready: a database that has not run the migration yet
            // has no runs to show.
            appStoreSync = try? AppStoreSyncStatus.read(connections: connections, every: appStoreSyncEvery, now: now())
            stripeSync = try? StripeSyncStatus.read(connections: connections, every: stripeSyncEvery, now: now())
            drift = try? DriftStatus.read(connections: connections, every: driftCheckEvery, now: now())
        } catch let error as MigrationError {
            migrations = Check(ok: false, detail: error.description)
            reason = Reason.migrationsMismatch
        } catch {
            database = Check(ok: false, detail: "\(error)")
            reason = Reason.databaseUnavailable
            migrations = Check(ok: false, detail: "unknown: the database is unreachable")
            projections = Check(ok: false, detail: "unknown: the database is unreachable")
        }
        if let status {
            var problems: [String] = []
            for item in status.items {
                if !item.exists { problems.append("\(item.name) not created yet") }
                if let failed = item.failedPosition { problems.append("\(item.name) stopped at position \(failed)") }
                if item.lag > readyMaxLag { problems.append("\(item.name) is \(item.lag) events behind") }
            }
            if !problems.isEmpty {
                projections = Check(ok: false, detail: problems.joined(separator: "; "))
                // The gravest first: a stop needs an operator, a missing one a projector,
                // a lag only time.
                if migrations.ok {
                    reason = status.items.contains { $0.failedPosition != nil } ? Reason.projectionStopped
                        : status.items.contains { !$0.exists } ? Reason.projectionMissing : Reason.projectionsBehind
                }
            }
        }
        let ready = database.ok && migrations.ok && projections.ok
        return (Readiness(ready: ready, status: ready ? "ready" : "not_ready", reason: reason,
                          checks: Checks(database: database, migrations: migrations, projections: projections),
                          head: status?.head, projections: status?.items ?? [], replicas: replicas?.statuses,
                          checkpoint: checkpoint, appStoreSync: appStoreSync?.apps.isEmpty == false ? appStoreSync : nil,
                          stripeSync: stripeSync?.apps.isEmpty == false ? stripeSync : nil,
                          drift: drift?.projections.isEmpty == false ? drift : nil,
                          warnings: Self.warnings(appStoreSync, stripeSync, drift, now: now())), status)
    }

    static func warnings(_ appStore: AppStoreSyncStatus?, _ stripe: StripeSyncStatus?, _ drift: DriftStatus?, now: Timestamp) -> [String]? {
        let all = (drift?.warnings(now: now) ?? []) + (appStore?.warnings(now: now) ?? []) + (stripe?.warnings(now: now) ?? [])
        return all.isEmpty ? nil : all
    }
}
