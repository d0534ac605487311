import LedgerDomain

/// Settling a hold, by a release (nothing is posted) or a capture (wholly or partly, the
/// rest released): `HoldDecider` on the hold's stream read from the log, which alone
/// decides whether the hold is open, appended at exactly the version read.
public struct HoldSettleAct: LedgerAct {
    public enum Settlement: Sendable {
        case release
        /// nil captures the whole hold.
        case capture(Millicredits?)
    }

    public var id: String
    public var settlement: Settlement

    public init(id: String, _ settlement: Settlement) {
        self.id = id
        self.settlement = settlement
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state = try reads.holdState(id)
        switch settlement {
        case .release: return try HoldDecider.release(id: id, state: state)
        case .capture(let amount): return try HoldDecider.capture(id: id, amount: amount, state: state)
        }
    }

    /// Settled by someone else between the read and the append: the refusal says by what.
    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        guard stream == HoldDecider.stream(id) else { return nil }
        do {
            _ = try HoldDecider.release(id: id, state: try reads.holdState(id))
        } catch let refusal as Refusal {
            return refusal
        }
        return Refusal(.alreadySettled, "hold \(id) was settled meanwhile")
    }
}
