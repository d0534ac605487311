import LedgerDomain

extension BillingFold {
    func payerCreated(_ e: PayerCreated) throws {
        db.enqueue("INSERT INTO payers (payer_id, name, position) VALUES ($1, $2, $3)", [e.payerID, e.name, position])
        try ensurePool(.payer(e.payerID))
    }

    func projectCreated(_ e: ProjectCreated) throws {
        db.enqueue("INSERT INTO projects (project_id, name, position) VALUES ($1, $2, $3)", [e.projectID, e.name, position])
        try setFunding(project: e.projectID, funding: e.funding, effectiveMicros: event.occurredAt.microseconds)
    }

    func fundingChanged(_ e: ProjectFundingChanged) throws {
        try setFunding(project: e.projectID, funding: e.funding, effectiveMicros: e.effectiveAt.microseconds)
    }

    private func setFunding(project: String, funding: Funding, effectiveMicros: Int64) throws {
        let pool = funding.pool(of: project)
        try ensurePool(pool)
        db.enqueue("INSERT INTO funding (project_id, effective_us, position, pool) VALUES ($1, $2, $3, $4)",
                   [project, effectiveMicros, position, pool.description])
        db.remember("funding:" + project, nil)
    }

    func planSet(_ e: PlanSet) throws {
        try ensurePool(e.pool)
        db.enqueue("UPDATE pools SET plan = $2, allowance_storage_bytes = $3 WHERE pool = $1",
                       [e.pool.description, e.plan, e.allowanceStorageBytes])
    }

    func keyIssued(_ e: KeyIssued) throws {
        db.enqueue("""
            INSERT INTO keys (sha256, key_id, principal_kind, principal_id, prefix, position)
            VALUES ($1, $2, $3, $4, $5, $6)
            """, [e.sha256, e.keyID, e.principal.kind.rawValue, e.principal.id, e.prefix, position])
    }

    func keyRevoked(_ e: KeyRevoked) throws {
        db.enqueue("UPDATE keys SET revoked = true WHERE key_id = $1", [e.keyID])
    }

    func pricingConfigured(_ e: PricingConfigured) throws {
        db.remember("unit_price", e.unitPrice.value)
        db.enqueue("""
            INSERT INTO pricing (unit_price, storage_price, position) VALUES ($1, $2, $3)
            ON CONFLICT (singleton) DO UPDATE SET unit_price = excluded.unit_price,
                storage_price = excluded.storage_price, position = excluded.position
            """, [e.unitPrice.value, e.storagePricePerGiBMonth.value, position])
    }
}
