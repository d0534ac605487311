import ProjectionEngine

/// One use-case that reads: the read twin of `LedgerAct`. It names the projections it
/// reads and whose data it shows; `QueryRunner` runs it the same way for the API, the
/// console and `ledger admin` (authorize, wait for `min_position` on exactly those
/// projections, choose a replica, read); front ends only parse into a query and render
/// its `QueryOutcome`.
public protocol LedgerQuery: Sendable {
    associatedtype Answer: Sendable

    /// The projections `read` reads. A read at a `min_position` waits until every one of
    /// them has applied it, and a replica serves it only when its copies of all of them have.
    var projections: [any Projection] { get }

    /// Whose data the answer shows: the runner checks that the reader may read it before
    /// anything waits or is read.
    var subject: QuerySubject { get }

    /// The position a replica's copies of `projections` must have passed to serve the
    /// read, beside the request's `min_position` (a proof at a tree size needs the tree at
    /// that size); nil: the primary only (the latest of something, which a replica a moment
    /// behind would answer older). 0 by default: any replica in rotation.
    var replicaFloor: Int64? { get }

    /// The answer, read on `reads` (the primary or a replica that has passed the position
    /// asked); nil when the subject does not exist.
    func read(_ reads: QueryReads) throws -> Answer?
}

extension LedgerQuery {
    public var replicaFloor: Int64? { 0 }
}
