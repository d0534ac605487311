import Foundation

/// Where each event of an append landed.
public struct AppendResult: Sendable, Equatable {
    /// One per event of the request, in order.
    public var events: [AppendedEvent]
    /// True when nothing was written because the log already held this append (same
    /// idempotency key and request) or every one of its keyed events.
    public var replayed: Bool

    /// The highest position among the events: a read that waits for projections to pass
    /// it sees this append (read-your-writes).
    public var position: Int64 { events.map(\.position).max() ?? 0 }
}

public struct AppendedEvent: Sendable, Equatable {
    public var position: Int64
    public var eventID: UUID
    public var stream: String
    public var streamVersion: Int64
    /// Written earlier, by an append with the same idempotency key.
    public var alreadyRecorded: Bool
}
