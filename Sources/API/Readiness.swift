import EventStore
import Foundation
import Postgres

/// The answer of `/readyz`.
struct Readiness: Sendable, Codable {
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

    static func check(_ context: ServiceContext) -> Readiness {
        var database = Check(ok: true)
        var migrations = Check(ok: true)
        var projections = Check(ok: true)
        var status: ProjectionStatus?
        do {
            let pending = try context.pool.read { connection in
                try Migrator(migrations: context.migrations).status(on: connection).pending
            }
            if !pending.isEmpty {
                migrations = Check(ok: false, detail: "pending: " + pending.map { "\($0.version)_\($0.name)" }.joined(separator: ", "))
            }
            status = try ProjectionStatus.read(context.projections, pool: context.pool)
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
                if item.lag > context.readyMaxLag { problems.append("\(item.name) is \(item.lag) events behind") }
            }
            if !problems.isEmpty { projections = Check(ok: false, detail: problems.joined(separator: "; ")) }
        }
        let ready = database.ok && migrations.ok && projections.ok
        return Readiness(ready: ready, status: ready ? "ready" : "not_ready",
                         checks: Checks(database: database, migrations: migrations, projections: projections),
                         head: status?.head, projections: status?.items ?? [])
    }
}
