import EventStore
import LedgerDomain
import ProjectionEngine
import Projections

/// Every event an operator set aside for a projection (`ledger audit set-asides`): which,
/// for which projection, the error it stopped on, who set it aside and why, and whether
/// the projection has skipped it yet. It reads the log and each projection's record of
/// what it skipped, on one connection.
public struct SetAsidesQuery: LedgerQuery {
    public init() {}

    /// One `projection.event_set_aside`.
    public struct SetAside: Sendable, Equatable {
        public var projection: String
        /// The position of the event set aside.
        public var position: Int64
        public var eventType: String
        public var error: String
        /// The position of the `projection.event_set_aside` event itself.
        public var setAsideAt: Int64
        /// The operator's name; nil when the event's metadata names nobody.
        public var operatorName: String?
        public var reason: String?
        /// Whether the projection has skipped the event yet (it does when it reaches it).
        public var skipped: Bool
    }

    /// None: the log and the projections' own records, never a projection's read model.
    public var projections: [any Projection] { [] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [SetAside]? {
        let (recorded, skipped) = try reads.connections.read { conn -> ([RecordedEvent], [String: [ProjectionSchema.SkippedEvent]]) in
            let events = try LogReader(conn).events(ofType: EventSetAside.type)
            var skipped: [String: [ProjectionSchema.SkippedEvent]] = [:]
            for projection in AllProjections.all { skipped[projection.name] = try ProjectionSchema.skippedEvents(projection.schema, on: conn) }
            return (events, skipped)
        }
        return try recorded.map { event in
            let setAside = try event.decode(EventSetAside.self)
            let metadata = try event.metadata()
            return SetAside(projection: setAside.projection, position: setAside.position, eventType: setAside.eventType,
                            error: setAside.error, setAsideAt: event.position, operatorName: metadata?.actor.id,
                            reason: metadata?.reason,
                            skipped: skipped[setAside.projection]?.contains { $0.position == setAside.position } ?? false)
        }
    }
}
