import EventStore
import Foundation
import LedgerServices
import Postgres
import ProjectionEngine
import Projections

/// The answer of `/readyz`.
struct Readiness: Sendable, Encodable {
    struct Check: Sendable, Codable {
        var ok: Bool
        var detail: String?
    }

    struct Checks: Sendable, Codable {
        var database: Check
        var migrations: Check
        var projections: Check
    }

    var ready: Bool
    var status: String
    var checks: Checks
    var head: Int64?
    var projections: [ProjectionStatus.Item]
    /// Each read replica, its lag and whether it serves reads; absent without replicas. A
    /// replica out of rotation does not make the service unready: the primary serves.
    var replicas: [ReplicaStatus]?
    /// The last signed checkpoint of the log (docs/audit.md); absent until one is signed. Its
    /// age never makes the service unready: the API serves without it.
    var checkpoint: CheckpointStatus?

    struct CheckpointStatus: Sendable, Encodable {
        var position: Int64
        var size: Int64
        var time: String
        /// Microseconds since the epoch, for the age metric.
        var timeMicroseconds: Int64
        enum CodingKeys: String, CodingKey { case position, size, time }
    }

    /// Not ready, for a reason found outside the checks (no check has completed).
    static func unknown(_ detail: String) -> Readiness {
        let check = Check(ok: false, detail: detail)
        return Readiness(ready: false, status: "not_ready", checks: Checks(database: check, migrations: check, projections: check),
                         head: nil, projections: [], replicas: nil, checkpoint: nil)
    }

    /// Readiness, and the projection status it was judged on (nil when unreachable).
    static func check(pool: PostgresPool, migrations expected: [Migration], projections all: [any Projection],
                      readyMaxLag: Int64, replicas: ReplicaSet? = nil) -> (Readiness, ProjectionStatus?) {
        var database = Check(ok: true)
        var migrations = Check(ok: true)
        var projections = Check(ok: true)
        var status: ProjectionStatus?
        var checkpoint: CheckpointStatus?
        do {
            let pending = try pool.read { connection in
                try Migrator(migrations: expected).status(on: connection).pending
            }
            if !pending.isEmpty {
                migrations = Check(ok: false, detail: "pending: " + pending.map { "\($0.version)_\($0.name)" }.joined(separator: ", "))
            }
            status = try ProjectionStatus.read(all, pool: pool)
            checkpoint = try MerkleReadModel(pool: pool).latestCheckpoint().map {
                CheckpointStatus(position: $0.position, size: $0.checkpoint.size, time: $0.checkpoint.time.iso8601,
                                 timeMicroseconds: $0.checkpoint.time.microseconds)
            }
        } catch let error as MigrationError {
            migrations = Check(ok: false, detail: error.description)
        } catch {
            database = Check(ok: false, detail: "\(error)")
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
            if !problems.isEmpty { projections = Check(ok: false, detail: problems.joined(separator: "; ")) }
        }
        let ready = database.ok && migrations.ok && projections.ok
        return (Readiness(ready: ready, status: ready ? "ready" : "not_ready",
                          checks: Checks(database: database, migrations: migrations, projections: projections),
                          head: status?.head, projections: status?.items ?? [], replicas: replicas?.statuses,
                          checkpoint: checkpoint), status)
    }
}
