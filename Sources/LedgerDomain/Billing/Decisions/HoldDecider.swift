import LedgerJSON

/// Decides holds: a reserve on a project's pool, settled once by a capture (which posts
/// part or all of it) or a release. A hold is its own stream, `hold-<id>`, which alone
/// decides whether it is open: settling expects it at exactly version 1.
public enum HoldDecider {
    /// A hold as its stream tells it.
    public enum State: Sendable, Hashable {
        case absent
        case open(HoldPlaced)
        /// Captured or released, at `position`.
        case settled(by: String, position: Int64)

        /// Folds the hold's stream, oldest first (type, payload, position).
        public init(stream: [(type: String, data: JSONValue, position: Int64)]) throws {
            guard let first = stream.first, first.type == HoldPlaced.type else {
                self = .absent
                return
            }
            if stream.count > 1 {
                self = .settled(by: stream[1].type, position: stream[1].position)
            } else {
                self = .open(try JSONValueDecoder().decode(HoldPlaced.self, from: first.data))
            }
        }
    }

    public static func stream(_ id: String) -> String { "hold-" + id }

    /// On the pool that funds the project now.
    public static func place(id: String, projectID: String, amount: Millicredits, description: String,
                             currentPool: Pool?, state: AccountsDecider.State) throws(Refusal) -> Decision {
        try AccountsDecider.checkIdentifier(id, "hold")
        try AccountsDecider.requireProject(projectID, state)
        guard let pool = currentPool else { throw Refusal(.notFound, "project \(projectID) has no pool") }
        try MoneyDecider.checkAmount(amount, positive: true, what: "a hold")
        let event = HoldPlaced(holdID: id, projectID: projectID, pool: pool, amount: amount, description: description)
        return Decision(PendingEvent(event, on: stream(id)),
                        expecting: [stream(id): .noStream, Pool.project(projectID).ownerStream: .streamExists])
    }

    /// `amount` (default the whole hold) posts; the rest is released.
    public static func capture(id: String, amount: Millicredits?, state: State) throws(Refusal) -> Decision {
        let hold = try open(id, state)
        let captured = amount ?? hold.amount
        guard captured.value > 0 else { throw Refusal(.outOfRange, "a capture is at least 1 millicredit, got \(captured)") }
        guard captured <= hold.amount else {
            throw Refusal(.exceedsHold, "cannot capture \(captured) from hold \(id): it holds \(hold.amount)")
        }
        return Decision(PendingEvent(HoldCaptured(holdID: id, amount: captured), on: stream(id)), expecting: [stream(id): .exactly(1)])
    }

    public static func release(id: String, state: State) throws(Refusal) -> Decision {
        _ = try open(id, state)
        return Decision(PendingEvent(HoldReleased(holdID: id), on: stream(id)), expecting: [stream(id): .exactly(1)])
    }

    static func open(_ id: String, _ state: State) throws(Refusal) -> HoldPlaced {
        switch state {
        case .absent: throw Refusal(.notFound, "hold \(id) does not exist")
        case .settled(let type, let position):
            let verb = type == HoldCaptured.type ? "captured" : "released"
            throw Refusal(.alreadySettled, "hold \(id) was already \(verb) (position \(position)): a hold is settled once")
        case .open(let placed): return placed
        }
    }
}
