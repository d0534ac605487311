import EventStore
import LedgerDomain
import Postgres

/// Reads of the billing projection (`proj_billing`), on one connection, inside one
/// read-only snapshot so that a response is consistent with the position it names.
struct BillingReader {
    let conn: PostgresConnection
    /// The request's time: pending changes (funding) are resolved against it.
    let now: Timestamp

    static let schema = "proj_billing"

    /// Runs `body` in a repeatable-read, read-only transaction.
    static func read<T>(_ pool: PostgresPool, now: Timestamp, _ body: (BillingReader) throws -> T) throws -> T {
        try pool.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { try body(BillingReader(conn: $0, now: now)) }
        }
    }

    /// The position the projection has applied.
    func position() throws -> Int64 {
        try conn.query("SELECT position FROM proj_billing._checkpoint")[0].requireInt64(0)
    }

    func exists(_ account: BillingAccount) throws -> Bool {
        switch account {
        case .project(let id): return try conn.query("SELECT 1 FROM proj_billing.projects WHERE project_id = $1", [id]).rowCount == 1
        case .payer(let id): return try conn.query("SELECT 1 FROM proj_billing.payers WHERE payer_id = $1", [id]).rowCount == 1
        }
    }

    /// The pool funding a project now.
    func currentPool(ofProject id: String) throws -> Pool? {
        let rows = try conn.query("""
            (SELECT pool FROM proj_billing.funding WHERE project_id = $1 AND effective_us <= $2
             ORDER BY effective_us DESC, position DESC LIMIT 1)
            UNION ALL
            (SELECT pool FROM proj_billing.funding WHERE project_id = $1 ORDER BY effective_us, position LIMIT 1)
            """, [id, now.microseconds])
        return rows.rowCount == 0 ? nil : Pool(try rows[0].requireString(0))
    }

    struct BalanceRow {
        var creditPlan: Int64, creditPurchase: Int64, creditGrant: Int64, correction: Int64
        var usagePosted: Int64, holdPosted: Int64, holdHeld: Int64
    }

    /// An account's balance on one pool (zeros before any activity).
    func balanceRow(_ account: String, pool: Pool) throws -> BalanceRow {
        let rows = try conn.query("""
            SELECT credit_plan, credit_purchase, credit_grant, correction, usage_posted, hold_posted, hold_held
            FROM proj_billing.balances WHERE account = $1 AND pool = $2
            """, [account, pool.description])
        guard rows.rowCount == 1 else {
            return BalanceRow(creditPlan: 0, creditPurchase: 0, creditGrant: 0, correction: 0, usagePosted: 0, holdPosted: 0, holdHeld: 0)
        }
        let r = rows[0]
        return BalanceRow(creditPlan: try r.requireInt64(0), creditPurchase: try r.requireInt64(1), creditGrant: try r.requireInt64(2),
                          correction: try r.requireInt64(3), usagePosted: try r.requireInt64(4), holdPosted: try r.requireInt64(5),
                          holdHeld: try r.requireInt64(6))
    }

    /// A pool-month as the fold left it, with the storage part estimated at today's price
    /// when it is not closed, or the recorded charges when it is.
    struct PoolMonth {
        var pool: Pool
        var month: String
        var status: String
        var freeUsed: Int64
        var allowanceBytes: Int64
        /// Per GiB-month: the price frozen at closing, or today's for an open month.
        var storagePrice: Millicredits
        var charges: [String: ProjectCharge]
        var meters: [String: ProjectMeters]
    }

    struct ProjectMeters {
        var apiRequests: Int64, streamEvents: Int64, webhookDeliveries: Int64, bytesServed: Int64, bytesReceived: Int64
    }

    func poolMonth(_ pool: Pool, _ month: String) throws -> PoolMonth? {
        // A closing month is priced as it stood when it started closing.
        let head = try conn.query("""
            SELECT m.status, m.free_used, coalesce(m.closing_allowance_bytes, p.allowance_storage_bytes),
                   coalesce(m.closing_storage_price, (SELECT storage_price FROM proj_billing.pricing), 0)
            FROM proj_billing.pool_months m
            JOIN proj_billing.pools p ON p.pool = m.pool WHERE m.pool = $1 AND m.month = $2
            """, [pool.description, month])
        guard head.rowCount == 1 else { return nil }
        let status = try head[0].requireString(0)
        let rows = try conn.query("""
            SELECT project_id, api_requests, stream_events, webhook_deliveries, free_units, billed_units, units_amount,
                   storage_peak, bytes_served, bytes_received
            FROM proj_billing.project_months WHERE pool = $1 AND month = $2 ORDER BY project_id
            """, [pool.description, month])
        var usage: [String: MonthCharges.ProjectUsage] = [:]
        var meters: [String: ProjectMeters] = [:]
        for r in rows.rows {
            let id = try r.requireString(0)
            let (a, s, w) = (try r.requireInt64(1), try r.requireInt64(2), try r.requireInt64(3))
            usage[id] = MonthCharges.ProjectUsage(units: a + s + w, freeUnits: try r.requireInt64(4), billedUnits: try r.requireInt64(5),
                                                  unitsAmount: Millicredits(try r.requireInt64(6)), storagePeak: try r.requireInt64(7))
            meters[id] = ProjectMeters(apiRequests: a, streamEvents: s, webhookDeliveries: w,
                                       bytesServed: try r.requireInt64(8), bytesReceived: try r.requireInt64(9))
        }
        var charges: [String: ProjectCharge] = [:]
        if status == "closed" {
            let recorded = try conn.query("""
                SELECT project_id, units, free_units, billed_units, units_amount, storage_bytes, billed_storage_bytes,
                       storage_amount, amount FROM proj_billing.charges WHERE pool = $1 AND month = $2
                """, [pool.description, month])
            for r in recorded.rows {
                let c = ProjectCharge(projectID: try r.requireString(0), units: try r.requireInt64(1), freeUnits: try r.requireInt64(2),
                                      billedUnits: try r.requireInt64(3), unitsAmount: Millicredits(try r.requireInt64(4)),
                                      storageBytes: try r.requireInt64(5), billedStorageBytes: try r.requireInt64(6),
                                      storageAmount: Millicredits(try r.requireInt64(7)), amount: Millicredits(try r.requireInt64(8)))
                charges[c.projectID] = c
            }
        } else {
            for c in try MonthCharges.compute(projects: usage, allowanceBytes: try head[0].requireInt64(2),
                                              storagePrice: Millicredits(try head[0].requireInt64(3))) {
                charges[c.projectID] = c
            }
        }
        return PoolMonth(pool: pool, month: month, status: status, freeUsed: try head[0].requireInt64(1),
                         allowanceBytes: try head[0].requireInt64(2), storagePrice: Millicredits(try head[0].requireInt64(3)),
                         charges: charges, meters: meters)
    }

    func storagePrice() throws -> Millicredits {
        let rows = try conn.query("SELECT storage_price FROM proj_billing.pricing")
        return Millicredits(rows.rowCount == 0 ? 0 : try rows[0].requireInt64(0))
    }

    /// Usage not yet posted on `pool` (months not closed): a hold until the month closes.
    /// For the pool's own account the whole pool's; for a project, its own share.
    func accruedUsage(account: BillingAccount, pool: Pool) throws -> Millicredits {
        var total = Millicredits.zero
        for month in try openMonths(pool: pool) {
            guard let m = try poolMonth(pool, month) else { continue }
            if account.key == pool.description {
                total = try total + Millicredits.sum(m.charges.values.map(\.amount))
            } else if case .project(let id) = account {
                total = try total + (m.charges[id]?.amount ?? .zero)
            }
        }
        return total
    }

    private func openMonths(pool: Pool) throws -> [String] {
        let rows = try conn.query("""
            SELECT month FROM proj_billing.pool_months WHERE pool = $1 AND status <> 'closed' ORDER BY month
            """, [pool.description])
        return try rows.rows.map { try $0.requireString(0) }
    }
}
