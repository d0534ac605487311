import LedgerDomain

/// U3: a pool's plan and its free storage, `AccountsDecider.setPlan`.
public struct PlanSetAct: LedgerAct {
    public var pool: Pool
    public var plan: AccountsDecider.PlanChoice

    public init(pool: Pool, plan: AccountsDecider.PlanChoice) {
        self.pool = pool
        self.plan = plan
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try AccountsDecider.setPlan(pool: pool, plan: plan, state: try reads.accountsState(pool))
    }
}
