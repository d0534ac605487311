/// Decides the operator's way out of a poison event (docs/operations.md, "A poison event"): setting it aside.
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

extension ProjectionDecider {
    /// Records rebuilds swapped in, one event per projection on its stream, in one append
    /// under the caller's key (made once per swap, so a retry records it once).
    public static func rebuilt(_ rebuilds: [ProjectionRebuilt], key: String) throws(Refusal) -> Decision {
        guard !rebuilds.isEmpty else { throw Refusal(.outOfRange, "no projection was rebuilt") }
        guard !key.isEmpty, key.utf8.count <= 200 else { throw Refusal(.outOfRange, "the record's idempotency key must be 1 to 200 bytes") }
        for r in rebuilds where r.projection.isEmpty || r.comparedAt < 0 || r.accountsChanged < 0
            || r.tables.contains(where: { $0.added < 0 || $0.removed < 0 || $0.changed < 0 }) {
            throw Refusal(.outOfRange, "the rebuild of \(r.projection) has negative counts or no name")
        }
        return Decision(rebuilds.map { PendingEvent($0, on: stream($0.projection)) }, idempotencyKey: key)
    }
}

extension Refusal.Code {
    /// The projection is not stopped on the event named.
    public static let notStopped = Refusal.Code("not_stopped")
}
