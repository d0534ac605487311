/// The events collected since a time: newest first, and whether that is all of them or
/// the walk stopped at its bound with older ones left (the window is then to be split).
public struct StripeEventCollection: Sendable, Equatable {
    /// Newest first, as Stripe lists them; each event once.
    public var events: [StripeAPIEvent]
    /// Stripe said `has_more: false`: no event of the window is missing.
    public var isComplete: Bool

    public init(events: [StripeAPIEvent], isComplete: Bool) {
        self.events = events
        self.isComplete = isComplete
    }
}
