import LedgerDomain

/// A project, self-paying (its own pool) or funded by an existing payer, on a new stream;
/// the payer's stream is expected at the version judged.
public struct ProjectCreateAct: LedgerAct {
    public var id: String
    public var name: String
    public var funding: Funding

    public init(id: String, name: String, funding: Funding) {
        self.id = id
        self.name = name
        self.funding = funding
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state = try reads.accountsState(payers: funding.payers)
        return try AccountsDecider.createProject(id: id, name: name, funding: funding, state: state)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        if stream == Pool.project(id).ownerStream { return Refusal(.alreadyExists, "project \(id) already exists") }
        return funding.missingPayer
    }
}

extension Funding {
    /// The payer this funding names, if any: what an act reads before judging it.
    var payers: [String] {
        if case .payer(let payer) = self { return [payer] }
        return []
    }

    /// The refusal for a payer's stream that was not where it was judged: it does not exist.
    var missingPayer: Refusal? {
        if case .payer(let payer) = self { return Refusal(.notFound, "payer \(payer) does not exist") }
        return nil
    }
}
