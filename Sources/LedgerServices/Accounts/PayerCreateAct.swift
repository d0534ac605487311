import LedgerDomain

/// A payer, which owns the pool `payer:<id>`, with its plan when one is given, on a new
/// stream: `.noStream` makes a second create fail, even a concurrent one.
public struct PayerCreateAct: LedgerAct {
    public var id: String
    public var name: String
    public var plan: AccountsDecider.PlanChoice?

    public init(id: String, name: String, plan: AccountsDecider.PlanChoice?) {
        self.id = id
        self.name = name
        self.plan = plan
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try AccountsDecider.createPayer(id: id, name: name, plan: plan)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == Pool.payer(id).ownerStream && (actualVersion ?? 0) > 0 ? Refusal(.alreadyExists, "payer \(id) already exists") : nil
    }
}
