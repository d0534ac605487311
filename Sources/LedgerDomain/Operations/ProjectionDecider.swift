/// Decides the operator's way out of a poison event (DESIGN §3): setting it aside.
public enum ProjectionDecider {
    /// Where a projection stands, as its checkpoint says.
    public struct State: Sendable, Hashable {
        public var position: Int64
        public var failedPosition: Int64?
        public var error: String?
        /// The type of the event at `failedPosition`.
        public var failedEventType: String?

        public init(position: Int64, failedPosition: Int64?, error: String?, failedEventType: String?) {
            self.position = position
            self.failedPosition = failedPosition
            self.error = error
            self.failedEventType = failedEventType
        }
    }

    public static func stream(_ projection: String) -> String { "projection-" + projection }

    /// Only the event a projection stopped on can be set aside, and only for that
    /// projection: an event it applied cannot be taken back this way (a replay would then
    /// differ from what it served), and one it has not reached is no poison yet. Once per
    /// event (the key names it).
    public static func setAside(projection: String, position: Int64, state: State?) throws(Refusal) -> Decision {
        guard let state else { throw Refusal(.notFound, "there is no projection \(projection) (or the projector has not created it yet)") }
        guard let failed = state.failedPosition, failed == position else {
            let now = state.failedPosition.map { "it stopped at position \($0)" } ?? "it has not stopped (it is at position \(state.position))"
            throw Refusal(.notStopped, "the \(projection) projection did not stop at position \(position): \(now); only the event a projection stopped on can be set aside")
        }
        let event = EventSetAside(projection: projection, position: position, eventType: state.failedEventType ?? "unknown",
                                  error: ExternalID.text(state.error ?? ""))
        return Decision(PendingEvent(event, on: stream(projection)), idempotencyKey: "set-aside:\(projection):\(position)")
    }
}

extension Refusal.Code {
    /// The projection is not stopped on the event named.
    public static let notStopped = Refusal.Code("not_stopped")
}
