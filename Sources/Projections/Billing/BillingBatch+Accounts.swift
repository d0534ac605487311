import LedgerDomain

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
        try setFunding(project: e.projectID, funding: e.funding, effectiveMicros: event.occurredAt.microseconds)
    }

    func fundingChanged(_ e: ProjectFundingChanged) throws {
        try setFunding(project: e.projectID, funding: e.funding, effectiveMicros: e.effectiveAt.microseconds)
    }

    private func setFunding(project: String, funding: Funding, effectiveMicros: Int64) throws {
        let pool = funding.pool(of: project)
        ensurePool(pool)
        self.funding.append([project, effectiveMicros, position, pool.description])
        var history = try history(of: project)
        history.append((effectiveMicros, position, pool.description))
        // The table's order: by effective time, then position.
        history.sort { ($0.effective, $0.position) < ($1.effective, $1.position) }
        fundingHistory[project] = history
    }

    /// The pool funding `project` at `instant`: the latest funding that took effect at or
    /// before it, or the project's first one for an instant before its creation.
    func poolOf(project: String, at instant: Timestamp) throws -> Pool {
        let history = try history(of: project)
        guard let first = history.first else { throw ProjectionError("usage for project \(project), which does not exist") }
        let chosen = history.last { $0.effective <= instant.microseconds } ?? first
        guard let pool = Pool(chosen.pool) else { throw ProjectionError("funding of \(project) names \(chosen.pool)") }
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
        let key = BalanceKey(account: account, pool: pool.description)
        balanceOrder.insert(key)
        balances[key, default: [:]][column, default: 0] += amount
    }
}
