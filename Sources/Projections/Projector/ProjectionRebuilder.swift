import Dispatch
import EventStore
import Foundation
import Postgres
import Synchronization

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

    public init(conninfo: String, batchSize: Int = 10_000, log: @escaping ProjectorLog,
                progress: @escaping @Sendable (String, Int64, Int64) -> Void = { _, _, _ in }) {
        self.conninfo = conninfo
        self.batchSize = batchSize
        self.log = log
        self.progress = progress
    }

    /// Rebuilds and swaps in the given projections; all of them are swapped in one
    /// transaction. Throws `ProjectionFailure` (and swaps nothing) on a poison event.
    public func rebuild(_ projections: [any Projection]) throws {
        try build(projections).swap()
    }

    /// Rebuilds the given projections into build schemas, up to a batch from the head,
    /// and returns what swaps them in (after an operator has seen what changes, for one).
    /// Throws `ProjectionFailure` on a poison event.
    public func build(_ projections: [any Projection]) throws -> RebuiltProjections {
        let connection = try PostgresConnection(conninfo: conninfo)
        // One rebuild at a time per database: two would fight over the build schemas.
        try connection.query("SELECT pg_advisory_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild])
        var handedOver = false
        defer { if !handedOver { _ = try? connection.query("SELECT pg_advisory_unlock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild]) } }
        for projection in projections {
            let build = ProjectionSchema.buildSchema(of: projection)
            try connection.transaction { tx in
                try tx.query("DROP SCHEMA IF EXISTS \(tx.quoteIdentifier(build)) CASCADE")
                try ProjectionSchema.create(build, for: projection, on: tx)
            }
            log(.info, "rebuilding projection", ["projection": projection.name, "schema": build])
        }
        // The bulk of the log: read once (ahead, on a connection of its own), and folded
        // into every build schema side by side, each projection on its own connection and
        // in its own transaction per batch. Durability of those commits is not waited for:
        // a crash loses build schemas only, which the next rebuild drops.
        let setAsides = try SetAsides.load(on: connection)
        let workers = try projections.map { _ in try PostgresConnection(conninfo: conninfo) }
        let reader = EventPrefetcher(conninfo: conninfo, after: 0, batchSize: batchSize)
        defer { reader.stop() }
        while true {
            let events = try reader.next()
            guard let last = events.last else { break }
            let head = try EventStore.headPosition(on: connection)
            let failures = Mutex<[Int: any Error]>([:])
            DispatchQueue.concurrentPerform(iterations: projections.count) { i in
                do {
                    try workers[i].transaction { tx in
                        try tx.query("SET LOCAL synchronous_commit TO off")
                        try fold(projections[i], events[...], into: ProjectionSchema.buildSchema(of: projections[i]),
                                 setAside: setAsides.forProjection(projections[i].name), on: tx)
                    }
                } catch {
                    failures.withLock { $0[i] = error }
                }
            }
            if let first = failures.withLock({ $0.sorted { $0.key < $1.key }.first }) { throw first.value }
            for projection in projections { progress(projection.name, last.position, head) }
            if events.count < batchSize { break }
        }
        handedOver = true
        return RebuiltProjections(rebuilder: self, projections: projections, connection: connection)
    }

    /// Folds `events` (those after the schema's checkpoint) into `schema`; returns the
    /// position reached.
    @discardableResult
    func fold(_ projection: any Projection, _ events: ArraySlice<RecordedEvent>, into schema: String,
              setAside: [Int64: SetAsides.Entry], on connection: PostgresConnection) throws -> Int64 {
        guard let checkpoint = try ProjectionSchema.checkpoint(schema, on: connection) else {
            throw ProjectionError("schema \(schema) disappeared during the rebuild")
        }
        let pending = events.drop { $0.position <= checkpoint.position }
        let applier = ProjectionApplier(projection: projection, schema: schema, setAside: setAside)
        switch try applier.apply(pending, from: checkpoint.position, on: connection) {
        case .applied(let through): return through
        case .failed(let failure, _): throw failure
        }
    }
}
