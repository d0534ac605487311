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
    /// Archive files (`ledger archive`) holding the positions before the live log, in
    /// order: the rebuild reads them first, so that it still starts from position 1.
    public var archives: [String] = []
    public var log: ProjectorLog
    /// Called after each batch with the projection, its position and the head it chases:
    /// from the projections' threads, one call at a time.
    public var progress: @Sendable (_ projection: String, _ position: Int64, _ head: Int64) -> Void

    /// Events a rebuild reads and folds per transaction unless told otherwise. Each batch
    /// writes every row its events touch once (a stream's index row, an account's balance,
    /// a subscription's frontier), so the fewer the batches the fewer the rewrites: at
    /// 50,000 a replay of the bench's log costs about 5 % less CPU than at 10,000, for
    /// about 130 MB more memory at its peak (docs/decisions.md).
    public static let defaultBatchSize = 50_000

    public init(conninfo: String, batchSize: Int = ProjectionRebuilder.defaultBatchSize, log: @escaping ProjectorLog,
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
                try ProjectionSchema.create(build, for: projection, deferringIndexes: true, on: tx)
            }
            log(.info, "rebuilding projection", ["projection": projection.name, "schema": build])
        }
        // The bulk of the log: read once (ahead, on a connection of its own), and folded
        // into every build schema side by side, each projection at its own pace on its own
        // connection, in its own transaction per batch, with the next batch decoded while
        // this one is written. Durability of those commits is not waited for: a crash
        // loses build schemas only, which the next rebuild drops.
        let setAsides = try SetAsides.load(on: connection, archives: archives)
        // Each projection takes the types it folds; one with events set aside takes every
        // event, for the applier to record those it skips.
        let consumers = projections.map { setAsides.forProjection($0.name).isEmpty ? $0.eventTypes : nil }
        let reader = EventPrefetcher(conninfo: conninfo, after: 0, batchSize: batchSize, consumers: consumers, archives: archives)
        defer { reader.stop() }
        let releaser = BatchReleaser()
        defer { releaser.finish() }
        let failures = Mutex<[Int: any Error]>([:])
        let reporting = Mutex(())
        let pipelines = DispatchGroup()
        for (i, projection) in projections.enumerated() {
            let setAside = setAsides.forProjection(projection.name)
            let worker = try PostgresConnection(conninfo: conninfo)
            let decoded = HandoffQueue<Result<(batch: EventPrefetcher.Batch, prepared: (any Sendable)?), any Error>>(capacity: 1)
            let decoder = Thread {
                defer { decoded.close() }
                do {
                    while let batch = try reader.next(for: i) {
                        // With events set aside the applier filters the batch first: nothing to decode ahead.
                        let prepared = setAside.isEmpty && !batch.events.isEmpty ? projection.prepare(batch.events[...]) : nil
                        guard decoded.put(.success((batch, prepared))) else { return }
                    }
                } catch {
                    _ = decoded.put(.failure(error))
                }
            }
            decoder.name = "ledger-decode-\(projection.name)"
            pipelines.enter()
            let applier = Thread { [self] in
                defer {
                    decoded.close()
                    pipelines.leave()
                }
                do {
                    var batches = 0
                    var head: Int64 = 0
                    while let next = decoded.take() {
                        let (batch, prepared) = try next.get()
                        try worker.transaction { tx in
                            // Per transaction, never for the session: behind a pooler in
                            // transaction mode a session setting would reach other clients.
                            try tx.query("SET LOCAL synchronous_commit TO off")
                            try fold(projection, batch.events[...], through: batch.through, prepared: prepared,
                                     into: ProjectionSchema.buildSchema(of: projection), setAside: setAside, on: tx)
                        }
                        batches += 1
                        // Statistics after the first batch and each time the tables may have
                        // grown fourfold: the next batches' lookups are planned on them.
                        if batches & (batches - 1) == 0 && batches.trailingZeroBitCount % 2 == 0 {
                            try ProjectionSchema.analyze(ProjectionSchema.buildSchema(of: projection), on: worker)
                        }
                        // The head the progress shows, read again every sixteenth batch.
                        if batches % 16 == 1 || batch.through > head { head = try LogReader(worker).headPosition() }
                        reporting.withLock { _ in progress(projection.name, batch.through, head) }
                        releaser.release(next)
                    }
                } catch {
                    failures.withLock { $0[i] = error }
                    // The others stop too: the rebuild fails as a whole.
                    reader.stop()
                }
            }
            applier.name = "ledger-fold-\(projection.name)"
            decoder.start()
            applier.start()
        }
        pipelines.wait()
        if let first = failures.withLock({ $0.sorted { $0.key < $1.key }.first }) { throw first.value }
        for projection in projections {
            try ProjectionSchema.createDeferredIndexes(ProjectionSchema.buildSchema(of: projection), for: projection, on: connection)
        }
        handedOver = true
        return RebuiltProjections(rebuilder: self, projections: projections, connection: connection)
    }

    /// Folds `events` (those after the schema's checkpoint) into `schema`; returns the
    /// position reached: `through` when given (the batch's end, past events of types the
    /// projection does not fold), else the last event's.
    @discardableResult
    func fold(_ projection: any Projection, _ events: ArraySlice<RecordedEvent>, through: Int64? = nil, prepared: (any Sendable)? = nil,
              into schema: String, setAside: [Int64: SetAsides.Entry], on connection: PostgresConnection) throws -> Int64 {
        guard let checkpoint = try ProjectionSchema.progress(schema, on: connection) else {
            throw ProjectionError("schema \(schema) disappeared during the rebuild")
        }
        let pending = events.drop { $0.position <= checkpoint.position }
        let applier = ProjectionApplier(projection: projection, schema: schema, setAside: setAside)
        // What was decoded ahead stands for the whole batch only.
        switch try applier.apply(pending, from: checkpoint.position, through: through,
                                 prepared: pending.count == events.count ? prepared : nil, on: connection) {
        case .applied(let through): return through
        case .failed(let failure, _): throw failure
        }
    }
}
