import EventStore
import Postgres

/// Projections rebuilt into build schemas and not yet swapped in: what `ledger replay`
/// compares with the live projections before it swaps (or, with `--dry-run`, instead).
/// It holds the rebuild lock until it is swapped or discarded.
public final class RebuiltProjections: @unchecked Sendable {
    // Used by the thread that rebuilt them.
    private let rebuilder: ProjectionRebuilder
    public let projections: [any Projection]
    private let connection: PostgresConnection
    private var closed = false

    init(rebuilder: ProjectionRebuilder, projections: [any Projection], connection: PostgresConnection) {
        self.rebuilder = rebuilder
        self.projections = projections
        self.connection = connection
    }

    deinit { discard() }

    /// Brings each rebuild to the live projection's position (under the lock every live
    /// batch takes, so that neither moves meanwhile) and compares them there: per table the
    /// rows added, removed and changed, and per account what the projection says changes.
    public func differences() throws -> [ProjectionDifferences] {
        let setAsides = try SetAsides.load(on: connection)
        return try connection.transaction { tx in
            try tx.query("SELECT pg_advisory_xact_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.projectionSwap])
            var out: [ProjectionDifferences] = []
            for projection in projections {
                let build = ProjectionSchema.buildSchema(of: projection)
                let live = try ProjectionSchema.progress(projection.schema, on: tx)
                let position = live?.position ?? 0
                try catchUp(projection, into: build, upTo: position, setAside: setAsides.forProjection(projection.name), on: tx)
                let reached = try ProjectionSchema.progress(build, on: tx)?.position ?? 0
                // A live projection of another version has other tables (it is rebuilt when
                // the projector starts): every row of the rebuild counts as new beside it.
                let comparable = live?.version == projection.version
                var tables: [ProjectionDifferences.Table] = []
                for table in projection.tables {
                    tables.append(try ProjectionDiff.compare(table: table, build: build, live: comparable ? projection.schema : nil, on: tx))
                }
                var accounts: [AccountDifference] = []
                if let figures = projection as? any AccountFigures, comparable, reached == position {
                    accounts = try figures.accountDifferences(build: build, live: projection.schema, on: tx)
                }
                out.append(ProjectionDifferences(projection: projection.name, position: reached, livePosition: live?.position,
                                                 tables: tables, accounts: accounts))
            }
            return out
        }
    }

    /// Folds the last events up to the head and swaps every rebuilt schema in, in one
    /// transaction under the lock the live projector takes per batch: readers switch from
    /// one complete state to the other and never see a projection go back in time.
    public func swap() throws {
        let setAsides = try SetAsides.load(on: connection)
        try connection.transaction { tx in
            try tx.query("SELECT pg_advisory_xact_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.projectionSwap])
            let head = try LogReader(tx).headPosition()
            for projection in projections {
                let build = ProjectionSchema.buildSchema(of: projection)
                try catchUp(projection, into: build, upTo: head, setAside: setAsides.forProjection(projection.name), on: tx)
                rebuilder.progress(projection.name, head, head)
                if try ProjectionSchema.exists(projection.schema, on: tx) {
                    try tx.query("ALTER SCHEMA \(tx.quoteIdentifier(projection.schema)) RENAME TO \(tx.quoteIdentifier(ProjectionSchema.oldSchema(of: projection)))")
                }
                try tx.query("ALTER SCHEMA \(tx.quoteIdentifier(build)) RENAME TO \(tx.quoteIdentifier(projection.schema))")
                // Caches of the projection reload now, not at their next periodic reload:
                // the rebuilt tables may differ at the same position (a bug fixed).
                try tx.query("SELECT pg_notify($1, $2)", [Projector.notificationChannel, "\(projection.name):\(head)"])
            }
        }
        // Dropped after the swap committed, so the swap itself holds no table lock that
        // would make readers of the old tables wait.
        for projection in projections {
            try connection.query("DROP SCHEMA IF EXISTS \(connection.quoteIdentifier(ProjectionSchema.oldSchema(of: projection))) CASCADE")
            rebuilder.log(.info, "projection rebuilt and swapped in", ["projection": projection.name])
        }
        discard()
    }

    /// Drops the build schemas without swapping (a dry run, or an operator who said no).
    public func discard() {
        guard !closed else { return }
        closed = true
        if connection.isOpen {
            for projection in projections {
                _ = try? connection.query("DROP SCHEMA IF EXISTS \(connection.quoteIdentifier(ProjectionSchema.buildSchema(of: projection))) CASCADE")
            }
            _ = try? connection.query("SELECT pg_advisory_unlock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild])
        }
    }

    /// Folds the build schema up to `limit`, in batches.
    private func catchUp(_ projection: any Projection, into build: String, upTo limit: Int64,
                         setAside: [Int64: SetAsides.Entry], on tx: PostgresConnection) throws {
        while let checkpoint = try ProjectionSchema.progress(build, on: tx), checkpoint.position < limit {
            var events = try LogReader(tx).read(after: checkpoint.position, limit: rebuilder.batchSize)
            events.removeAll { $0.position > limit }
            guard !events.isEmpty else { return }
            try rebuilder.fold(projection, events[...], into: build, setAside: setAside, on: tx)
        }
    }
}
