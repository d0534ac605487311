import LedgerDomain
import ProjectionEngine

extension BillingBatch {
    static func account(_ pool: Pool) -> String { pool.description }
    static func account(project: String) -> String { "project:" + project }

    /// The accounts an entry of `project` on `pool` is written to (the consumer first).
    static func accounts(project: String?, pool: Pool) -> [String] {
        var out = [account(pool)]
        if let project { out.insert(account(project: project), at: 0) }
        return out
    }

    func ensurePool(_ pool: Pool) { pools.insert(pool.description) }

    func payerCreated(_ e: PayerCreated) {
        payers.append([e.payerID, e.name, position])
        ensurePool(.payer(e.payerID))
    }

    func projectCreated(_ e: ProjectCreated) throws {
        projects.append([e.projectID, e.name, position])
        try setFunding(project: e.projectID, funding: e.funding, effectiveMicros: eventTime.microseconds)
    }

    func fundingChanged(_ e: ProjectFundingChanged) throws {
        try setFunding(project: e.projectID, funding: e.funding, effectiveMicros: e.effectiveAt.microseconds)
    }

    private func setFunding(project: String, funding: Funding, effectiveMicros: Int64) throws {
        let pool = funding.pool(of: project)
        ensurePool(pool)
        self.funding.append([project, effectiveMicros, position, pool.description])
        guard let effective = Timestamp(microseconds: effectiveMicros) else {
            throw ProjectionError("funding of \(project) takes effect outside 1970-9999")
        }
        fundingHistory[project] = FundingHistory(try history(of: project).changes
            + [FundingHistory.Change(effective: effective, position: position, pool: pool)])
    }

    /// The pool funding `project` at `instant` (`FundingHistory`'s rule).
    func poolOf(project: String, at instant: Timestamp) throws -> Pool {
        guard let pool = try history(of: project).pool(at: instant) else {
            throw ProjectionError("usage for project \(project), which does not exist")
        }
        return pool
    }

    func planSet(_ e: PlanSet) {
        ensurePool(e.pool)
        plans[e.pool.description] = (e.plan, e.allowanceStorageBytes)
    }

    func keyIssued(_ e: KeyIssued) {
        keys.append([e.sha256, e.keyID, e.principal.kind.rawValue, e.principal.id, e.prefix, position])
    }

    func keyRevoked(_ e: KeyRevoked) { revokedKeys.append(e.keyID) }

    func pricingConfigured(_ e: PricingConfigured) {
        pricing = (e.unitPrice.value, e.storagePricePerGiBMonth.value, position)
    }

    /// Adds to one column of an account's balance on a pool, creating the row on first use.
    func addToBalance(_ account: String, pool: Pool, _ column: BillingBalanceColumn, _ amount: Int128) {
        balances[BalanceKey(account: account, pool: pool.description), default: BillingBalanceColumn.zeros][column.ordinal] += amount
    }
}
