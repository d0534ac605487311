import EventStore
import Foundation
import Postgres

/// Rebuilds projections from the log into fresh schemas while the live ones keep serving,
/// then swaps them in (`ledger replay`, and the projector after a version change).
///
/// The bulk of the log is folded in ordinary batches. The final step takes the lock every
/// live projector batch takes, folds the last events up to the head inside that same
/// transaction, and renames the schemas, so readers switch from one complete state to the
/// other and never see the projection go back in time.
public struct ProjectionRebuilder: Sendable {
    public var conninfo: String
    public var batchSize: Int
    public var log: ProjectorLog
    /// Called after each batch with the projection, its position and the head it chases.
    public var progress: @Sendable (_ projection: String, _ position: Int64, _ head: Int64) -> Void

    public init(conninfo: String, batchSize: Int = 1_000, log: @escaping ProjectorLog,
                progress: @escaping @Sendable (String, Int64, Int64) -> Void = { _, _, _ in }) {
        self.conninfo = conninfo
        self.batchSize = batchSize
        self.log = log
        self.progress = progress
    }

    /// Rebuilds and swaps in the given projections; all of them are swapped in one
    /// transaction. Throws `ProjectionFailure` (and swaps nothing) on a poison event.
    public func rebuild(_ projections: [any Projection]) throws {
        let connection = try PostgresConnection(conninfo: conninfo)
        // One rebuild at a time per database: two would fight over the build schemas.
        try connection.query("SELECT pg_advisory_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild]) }

        for projection in projections {
            let build = ProjectionSchema.buildSchema(of: projection)
            try connection.transaction { tx in
                try tx.query("DROP SCHEMA IF EXISTS \(tx.quoteIdentifier(build)) CASCADE")
                try ProjectionSchema.create(build, for: projection, on: tx)
            }
            log(.info, "rebuilding projection", ["projection": projection.name, "schema": build])
            while true {
                let head = try EventStore.headPosition(on: connection)
                let position = try connection.transaction { try fold(projection, into: build, upTo: nil, on: $0) }
                progress(projection.name, position, head)
                if head - position < Int64(batchSize) { break }
            }
        }
        try connection.transaction { tx in
            try tx.query("SELECT pg_advisory_xact_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.projectionSwap])
            let head = try EventStore.headPosition(on: tx)
            for projection in projections {
                let build = ProjectionSchema.buildSchema(of: projection)
                while try fold(projection, into: build, upTo: head, on: tx) < head {}
                progress(projection.name, head, head)
                if try ProjectionSchema.exists(projection.schema, on: tx) {
                    try tx.query("ALTER SCHEMA \(tx.quoteIdentifier(projection.schema)) RENAME TO \(tx.quoteIdentifier(ProjectionSchema.oldSchema(of: projection)))")
                }
                try tx.query("ALTER SCHEMA \(tx.quoteIdentifier(build)) RENAME TO \(tx.quoteIdentifier(projection.schema))")
                // Caches of the projection reload now, not at their next periodic reload:
                // the rebuilt tables may differ at the same position (a bug fixed).
                try tx.query("SELECT pg_notify($1, $2)", [AllProjections.notificationChannel, "\(projection.name):\(head)"])
            }
        }
        // Dropped after the swap committed, so the swap itself holds no table lock that
        // would make readers of the old tables wait.
        for projection in projections {
            try connection.query("DROP SCHEMA IF EXISTS \(connection.quoteIdentifier(ProjectionSchema.oldSchema(of: projection))) CASCADE")
            log(.info, "projection rebuilt and swapped in", ["projection": projection.name])
        }
    }

    /// Folds one batch into `schema`; returns the position reached.
    private func fold(_ projection: any Projection, into schema: String, upTo limit: Int64?, on connection: PostgresConnection) throws -> Int64 {
        guard let checkpoint = try ProjectionSchema.checkpoint(schema, on: connection) else {
            throw ProjectionError("schema \(schema) disappeared during the rebuild")
        }
        var events = try EventStore.read(after: checkpoint.position, limit: batchSize, on: connection)
        if let limit { events.removeAll { $0.position > limit } }
        if events.isEmpty { return limit ?? checkpoint.position }
        let applier = ProjectionApplier(projection: projection, schema: schema,
                                        setAside: try SetAsides.load(on: connection).forProjection(projection.name))
        switch try applier.apply(events[...], from: checkpoint.position, on: connection) {
        case .applied(let through): return through
        case .failed(let failure, _): throw failure
        }
    }
}
