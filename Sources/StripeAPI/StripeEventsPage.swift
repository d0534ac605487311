/// One page of List all events: its events, newest first, and whether older ones remain.
public struct StripeEventsPage: Sendable, Equatable {
    public var events: [StripeAPIEvent]
    /// `has_more`: the next page, asked for with `starting_after` the last event's id,
    /// holds more.
    public var hasMore: Bool

    public init(events: [StripeAPIEvent], hasMore: Bool) {
        self.events = events
        self.hasMore = hasMore
    }

    /// The `starting_after` of the next page: the last event's id, when there is more.
    public var nextStartingAfter: String? { hasMore ? events.last?.id : nil }
}
