import LedgerDomain
import Postgres

/// Reads of the billing projection inside one read-only snapshot (see
/// `BillingReadModel.snapshot`), so that every figure of a response is as of the same
/// position.
public struct BillingSnapshot {
    let conn: PostgresConnection
    /// The request's time: pending changes (funding) are resolved against it.
    public let now: Timestamp

    /// The position the projection has applied.
    public func position() throws -> Int64 {
        try conn.query("SELECT position FROM proj_billing._checkpoint")[0].requireInt64(0)
    }

    public func exists(_ account: BillingAccount) throws -> Bool {
        switch account {
        case .project(let id): return try conn.query("SELECT 1 FROM proj_billing.projects WHERE project_id = $1", [id]).rowCount == 1
        case .payer(let id): return try conn.query("SELECT 1 FROM proj_billing.payers WHERE payer_id = $1", [id]).rowCount == 1
        }
    }

    /// The pool funding a project now, nil for a project without funding.
    ///
    /// `FundingHistory.pool(at:)` decides, as it does for the fold that bills usage and
    /// for the usage decider, so that a read names the pool the fold bills to by the
    /// same rule rather than a copy of it in SQL. It costs one statement, as the SQL form
    /// did: a project has a row per funding change, a handful at most.
    public func currentPool(ofProject id: String) throws -> Pool? {
        try fundingHistory(ofProject: id).pool(at: now)
    }

    /// Every funding change of a project, oldest first (empty without any).
    public func fundingHistory(ofProject id: String) throws -> FundingHistory {
        try BillingReadModel.fundingHistories(of: [id], on: conn)[id] ?? FundingHistory([])
    }

    /// An account's balance on one pool, per column (zeros before any activity).
    public struct Balance: Sendable {
        public var creditPlan = Millicredits.zero, creditPurchase = Millicredits.zero, creditGrant = Millicredits.zero
        public var correction = Millicredits.zero, usagePosted = Millicredits.zero, holdPosted = Millicredits.zero
        public var holdHeld = Millicredits.zero
    }

    public func balance(_ account: String, pool: Pool) throws -> Balance {
        let rows = try conn.query("""
            SELECT credit_plan::text, credit_purchase::text, credit_grant::text, correction::text, usage_posted::text,
                   hold_posted::text, hold_held::text
            FROM proj_billing.balances WHERE account = $1 AND pool = $2
            """, [account, pool.description])
        guard rows.rowCount == 1 else { return Balance() }
        let r = rows[0]
        func amount(_ column: Int) throws -> Millicredits { Millicredits(try r.requireInt128(column)) }
        return Balance(creditPlan: try amount(0), creditPurchase: try amount(1), creditGrant: try amount(2),
                       correction: try amount(3), usagePosted: try amount(4), holdPosted: try amount(5), holdHeld: try amount(6))
    }

    /// A pool-month as the fold left it, with the storage part estimated at today's price
    /// when it is not closed, or the recorded charges when it is.
    public struct PoolMonthView: Sendable {
        public var pool: Pool
        public var month: String
        public var status: MonthStatus
        public var freeUsed: Int64
        public var allowanceBytes: Int64
        /// Per GiB-month: the price frozen at closing, or today's for an open month.
        public var storagePrice: Millicredits
        public var charges: [String: ProjectCharge]
        public var meters: [String: ProjectMeters]
    }

    /// What a project's meters that are never billed (or billed through the charge) read.
    public struct ProjectMeters: Sendable {
        public var apiRequests: Quantity, streamEvents: Quantity, webhookDeliveries: Quantity
        public var bytesServed: Quantity, bytesReceived: Quantity
    }

    public func poolMonth(_ pool: Pool, _ month: String) throws -> PoolMonthView? {
        // A closing month is priced as it stood when it started closing.
        let head = try conn.query("""
            SELECT m.status, m.free_used, coalesce(m.closing_allowance_bytes, p.allowance_storage_bytes),
                   coalesce(m.closing_storage_price, (SELECT storage_price FROM proj_billing.pricing), 0)
            FROM proj_billing.pool_months m
            JOIN proj_billing.pools p ON p.pool = m.pool WHERE m.pool = $1 AND m.month = $2
            """, [pool.description, month])
        guard head.rowCount == 1 else { return nil }
        let status = try head[0].requireMonthStatus(0)
        let allowance = try head[0].requireInt64(2)
        let storagePrice = Millicredits(try head[0].requireInt64(3))
        let rows = try conn.query("""
            SELECT project_id, api_requests::text, stream_events::text, webhook_deliveries::text, free_units::text,
                   billed_units::text, units_amount::text, storage_peak, bytes_served::text, bytes_received::text
            FROM proj_billing.project_months WHERE pool = $1 AND month = $2 ORDER BY project_id
            """, [pool.description, month])
        var usage: [String: MonthCharges.ProjectUsage] = [:]
        var meters: [String: ProjectMeters] = [:]
        for r in rows.rows {
            func q(_ column: Int) throws -> Quantity { Quantity(try r.requireInt128(column)) }
            let id = try r.requireString(0)
            let (a, s, w) = (try q(1), try q(2), try q(3))
            usage[id] = MonthCharges.ProjectUsage(units: try a + s + w, freeUnits: try q(4), billedUnits: try q(5),
                                                  unitsAmount: Millicredits(try r.requireInt128(6)), storagePeak: try q(7))
            meters[id] = ProjectMeters(apiRequests: a, streamEvents: s, webhookDeliveries: w, bytesServed: try q(8), bytesReceived: try q(9))
        }
        var charges: [String: ProjectCharge] = [:]
        if status == .closed {
            let recorded = try conn.query("""
                SELECT project_id, units::text, free_units::text, billed_units::text, units_amount::text, storage_bytes::text,
                       billed_storage_bytes::text, storage_amount::text, amount::text
                FROM proj_billing.charges WHERE pool = $1 AND month = $2
                """, [pool.description, month])
            for r in recorded.rows {
                func q(_ column: Int) throws -> Quantity { Quantity(try r.requireInt128(column)) }
                func m(_ column: Int) throws -> Millicredits { Millicredits(try r.requireInt128(column)) }
                let c = ProjectCharge(projectID: try r.requireString(0), units: try q(1), freeUnits: try q(2), billedUnits: try q(3),
                                      unitsAmount: try m(4), storageBytes: try q(5), billedStorageBytes: try q(6),
                                      storageAmount: try m(7), amount: try m(8))
                charges[c.projectID] = c
            }
        } else {
            for c in try MonthCharges.compute(projects: usage, allowanceBytes: allowance, storagePrice: storagePrice) {
                charges[c.projectID] = c
            }
        }
        return PoolMonthView(pool: pool, month: month, status: status, freeUsed: try head[0].requireInt64(1),
                             allowanceBytes: allowance, storagePrice: storagePrice, charges: charges, meters: meters)
    }

    /// The pools a project was billed to in a month (one, unless its funding changed).
    public func pools(ofProject id: String, month: UTCMonth) throws -> [Pool] {
        try conn.query("""
            SELECT DISTINCT pool FROM proj_billing.project_months WHERE project_id = $1 AND month = $2 ORDER BY pool
            """, [id, month.description]).rows.compactMap { Pool(try $0.requireString(0)) }
    }

    /// Every pool `account` has figures on: a balance row (an entry or a hold posted to it
    /// there) or usage billed there, in pool order. More than one only for a project whose
    /// funding changed (U6).
    public func pools(ofAccount account: BillingAccount) throws -> [Pool] {
        let projectID: String? = if case .project(let id) = account { id } else { nil }
        return try conn.query("""
            SELECT pool FROM proj_billing.balances WHERE account = $1
            UNION SELECT pool FROM proj_billing.project_months WHERE project_id = $2
            ORDER BY pool
            """, [account.key, projectID]).rows.compactMap { Pool(try $0.requireString(0)) }
    }

    /// Usage not yet posted on `pool` (months not closed): a hold until the month closes.
    /// For the pool's own account the whole pool's; for a project, its own share.
    public func accruedUsage(account: BillingAccount, pool: Pool) throws -> Millicredits {
        var total = Millicredits.zero
        let months = try conn.query("""
            SELECT month FROM proj_billing.pool_months WHERE pool = $1 AND status <> $2 ORDER BY month
            """, [pool.description, MonthStatus.closed.rawValue]).rows.map { try $0.requireString(0) }
        for month in months {
            guard let m = try poolMonth(pool, month) else { continue }
            if account.key == pool.description {
                total = try total + Millicredits.sum(m.charges.values.map(\.amount))
            } else if case .project(let id) = account {
                total = try total + (m.charges[id]?.amount ?? .zero)
            }
        }
        return total
    }
}
