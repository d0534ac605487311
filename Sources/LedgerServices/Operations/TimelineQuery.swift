import EventStore
import LedgerDomain
import ProjectionEngine
import Projections

/// A page of a subject's story (the console's timeline): the events of its streams
/// (`TimelineSubject.streams`) after a position, oldest first. Its related streams are
/// found through the billing and organizations projections.
public struct TimelineQuery: LedgerQuery {
    public var timeline: TimelineSubject
    public var after: Int64
    public var limit: Int

    public init(_ timeline: TimelineSubject, after: Int64 = 0, limit: Int) {
        precondition(limit >= 1, "a timeline page holds at least one event")
        self.timeline = timeline
        self.after = after
        self.limit = limit
    }

    public struct Page: Sendable {
        /// At most `limit` events, in position order.
        public var events: [RecordedEvent]
        /// Whether later events follow the page's last.
        public var hasMore: Bool
    }

    public var projections: [any Projection] { [BillingProjection(), OrganizationsProjection()] }
    public var subject: QuerySubject { .ledger }

    /// nil when the subject does not exist (`TimelineSubject.exists`).
    public func read(_ reads: QueryReads) throws -> Page? {
        guard try timeline.exists(connections: reads.connections) else { return nil }
        let events = try reads.log.read(streams: try timeline.streams(connections: reads.connections), after: after, limit: limit + 1)
        return Page(events: Array(events.prefix(limit)), hasMore: events.count > limit)
    }
}
