import EventStore
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections

/// The one loader of what acts judge: the billing projection once it holds the stream
/// judged, and streams straight from the log. Reads only; nothing here waits for a
/// projection (the shell decides whether to wait or to answer "retry").
public struct ActReads: Sendable {
    public let connections: PostgresPool
    public let now: LedgerClock

    public init(connections: PostgresPool, now: @escaping LedgerClock) {
        self.connections = connections
        self.now = now
    }

    /// The billing projection's reads.
    public var billing: BillingReadModel { BillingReadModel(connections: connections) }

    /// The organizations projection's reads.
    public var organizations: OrganizationsReadModel { OrganizationsReadModel(connections: connections) }

    /// The version of `stream` if the billing projection has applied all of it (nil for
    /// a stream without events, once the projection exists); else throws `ProjectionBehind`. Reading the stream's head
    /// first and the projection after means a decision on the projection sees every event
    /// of the stream up to that version, and an append expecting it fails if one came since.
    public func billingVersion(covering stream: String) throws -> Int64? {
        let head = try LogReader(connections: connections).streamHead(stream)
        let reached = try billing.progress()?.position
        guard let head else {
            // No such stream, but the projection's tables must exist to say what else is there.
            if reached == nil { throw ProjectionBehind(projection: BillingProjection().name, target: 0, reached: nil) }
            return nil
        }
        guard let reached, reached >= head.position else {
            throw ProjectionBehind(projection: BillingProjection().name, target: head.position, reached: reached)
        }
        return head.version
    }

    /// Throws `ProjectionBehind` unless the billing projection has applied the whole log
    /// as it is now: what an act needs before it may say that something does not exist.
    public func requireBillingAtHead() throws {
        try requireAtHead(BillingProjection())
    }

    /// Throws `ProjectionBehind` until the projector has created `projection`'s tables.
    public func requireCreated(_ projection: any Projection) throws {
        guard try connections.read({ try ProjectionSchema.progress(projection.schema, on: $0) }) != nil else {
            throw ProjectionBehind(projection: projection.name, target: 0, reached: nil)
        }
    }

    /// Throws `ProjectionBehind` unless `projection` has applied the whole log as it is now.
    public func requireAtHead(_ projection: any Projection) throws {
        let (head, reached) = try connections.read { conn in
            (try LogReader(conn).headPosition(), try ProjectionSchema.progress(projection.schema, on: conn)?.position)
        }
        guard let reached, reached >= head else {
            throw ProjectionBehind(projection: projection.name, target: head, reached: reached)
        }
    }

    /// What the account deciders need to judge the payers and projects named, once the
    /// billing projection has applied the whole log: an act may then say one does not exist.
    public func accountsState(payers: [String] = [], projects: [String] = []) throws -> AccountsDecider.State {
        try requireBillingAtHead()
        return try billing.accountsState(payers: payers, projects: projects)
    }

    /// What the account deciders need to judge `pool` as a pool, once the billing
    /// projection holds the pool owner's stream.
    public func accountsState(_ pool: Pool) throws -> AccountsDecider.State {
        _ = try billingVersion(covering: pool.ownerStream)
        return try billing.accountsState(of: pool)
    }

    /// A hold's state from its own stream in the log, which alone decides whether it is open.
    public func holdState(_ id: String) throws -> HoldDecider.State {
        let events = try LogReader(connections: connections).readStream(HoldDecider.stream(id))
        return try HoldDecider.State(stream: try events.map { (type: $0.type, data: try $0.data(), position: $0.position) })
    }

    /// A stream's events, straight from the log: what a decider judges when a projection
    /// a moment behind would let it record a fact twice (an App Store subscription's).
    public func stream(_ stream: String, from version: Int64 = 1) throws -> [RecordedEvent] {
        try LogReader(connections: connections).readStream(stream, from: version)
    }

    /// The events of the log that carry the event-level idempotency `keys`.
    public func events(withKeys keys: [String]) throws -> [RecordedEvent] {
        try LogReader(connections: connections).events(withKeys: keys)
    }

    /// The log's head: the highest committed position.
    public func headPosition() throws -> Int64 {
        try LogReader(connections: connections).headPosition()
    }

    /// A stream's version in the log; 0 for a stream without events.
    public func streamVersion(_ stream: String) throws -> Int64 {
        try LogReader(connections: connections).streamHead(stream)?.version ?? 0
    }
}
