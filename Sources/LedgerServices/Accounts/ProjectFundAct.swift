import LedgerDomain

/// Who pays for a project from an instant on (now by default, never in the past).
public struct ProjectFundAct: LedgerAct {
    public var id: String
    public var funding: Funding
    public var effectiveAt: Timestamp?

    public init(id: String, funding: Funding, effectiveAt: Timestamp?) {
        self.id = id
        self.funding = funding
        self.effectiveAt = effectiveAt
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let now = reads.now()
        // The time check comes first: it needs no projection.
        if let effectiveAt, effectiveAt < now {
            _ = try AccountsDecider.fundProject(id: id, funding: funding, effectiveAt: effectiveAt, now: now, state: .init())
        }
        let state = try reads.accountsState(payers: funding.payers, projects: [id])
        return try AccountsDecider.fundProject(id: id, funding: funding, effectiveAt: effectiveAt, now: now, state: state)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        if stream == Pool.project(id).ownerStream { return Refusal(.notFound, "project \(id) does not exist") }
        return funding.missingPayer
    }
}
