import EventStore
import LedgerDomain

extension BillingFold {
    /// A pool-month as the fold needs it, remembered for the rest of the batch.
    struct PoolMonthState {
        var status: String
        var freeUsed: Int64
    }

    /// U4: counted units take what is left of the pool's free limit, in log order; the
    /// rest is billed at the unit price in force (in log order) now.
    func usageRecorded(_ e: UsageRecorded) throws {
        let pool = try poolOf(project: e.projectID, at: event.occurredAt).description
        let month = UTCMonth(containing: event.occurredAt).description
        var state = try poolMonth(pool, month)
        guard state.status == "open" else {
            // Recorded after the month started closing: kept, never billed (docs/billing.md).
            db.enqueue("""
                INSERT INTO late_usage (position, usage_id, project_id, pool, month, meter, quantity)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, [position, e.usageID, e.projectID, pool, month, e.meter.rawValue, e.quantity])
            return
        }
        db.enqueue("INSERT INTO project_months (project_id, month, pool) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                   [e.projectID, month, pool])
        switch e.meter {
        case .apiRequests, .streamEvents, .webhookDeliveries:
            let free = min(e.quantity, max(0, BillingRules.freeUnitsPerMonth - state.freeUsed))
            let billed = e.quantity - free
            let amount = try (Millicredits(try unitPrice()) * billed).value
            state.freeUsed += free
            db.remember("pm:" + pool + "|" + month, state)
            db.enqueue("UPDATE pool_months SET free_used = free_used + $3 WHERE pool = $1 AND month = $2", [pool, month, free])
            db.enqueue("""
                UPDATE project_months SET \(e.meter.rawValue) = \(e.meter.rawValue) + $4, free_units = free_units + $5,
                    billed_units = billed_units + $6, units_amount = units_amount + $7
                WHERE project_id = $1 AND month = $2 AND pool = $3
                """, [e.projectID, month, pool, e.quantity, free, billed, amount])
        case .storageBytes:
            db.enqueue("""
                UPDATE project_months SET storage_peak = greatest(storage_peak, $4)
                WHERE project_id = $1 AND month = $2 AND pool = $3
                """, [e.projectID, month, pool, e.quantity])
        case .bytesServed, .bytesReceived:
            db.enqueue("""
                UPDATE project_months SET \(e.meter.rawValue) = \(e.meter.rawValue) + $4
                WHERE project_id = $1 AND month = $2 AND pool = $3
                """, [e.projectID, month, pool, e.quantity])
        }
    }

    /// Freezes the month: what it owes is what was folded before this position, priced with
    /// the storage price and allowance in force now, whatever is appended before it closes.
    func monthClosing(_ e: MonthClosing) throws {
        try ensurePool(e.pool)
        let pricing = try db.execute("SELECT storage_price FROM pricing")
        let storagePrice: Int64 = pricing.rowCount == 0 ? 0 : try pricing[0].requireInt64(0)
        let allowance = try db.execute("SELECT allowance_storage_bytes FROM pools WHERE pool = $1", [e.pool.description])[0].requireInt64(0)
        let key = e.pool.description + "|" + e.month.description
        var state = try poolMonth(e.pool.description, e.month.description)
        state.status = "closing"
        db.remember("pm:" + key, state)
        db.enqueue("""
            UPDATE pool_months SET status = 'closing', closing_position = $3, closing_allowance_bytes = $4,
                closing_storage_price = $5
            WHERE pool = $1 AND month = $2
            """, [e.pool.description, e.month.description, position, allowance, storagePrice])
    }

    /// The recorded charges post as `usage_charge` entries, one per project that owes.
    func monthClosed(_ e: MonthClosed) throws {
        var state = try poolMonth(e.pool.description, e.month.description)
        state.status = "closed"
        db.remember("pm:" + e.pool.description + "|" + e.month.description, state)
        db.enqueue("UPDATE pool_months SET status = 'closed', closed_position = $3 WHERE pool = $1 AND month = $2",
                   [e.pool.description, e.month.description, position])
        var index: Int32 = 0
        for charge in e.charges {
            var entryID: String?
            if charge.amount.value != 0 {
                try post(Entry(index: index, kind: "usage_charge", source: nil, amount: -charge.amount.value,
                               projectID: charge.projectID, pool: e.pool, month: e.month.description, holdID: nil,
                               corrects: nil, description: "usage of \(e.month)"),
                         to: Self.accounts(project: charge.projectID, pool: e.pool), balance: .usagePosted)
                entryID = JournalEntryID(position: position, index: index).description
                index += 1
            }
            db.enqueue("""
                INSERT INTO charges (pool, month, project_id, units, free_units, billed_units, units_amount, storage_bytes,
                                     billed_storage_bytes, storage_amount, amount, entry_id, position)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                """, [e.pool.description, e.month.description, charge.projectID, charge.units.value, charge.freeUnits.value,
                      charge.billedUnits.value, charge.unitsAmount.value, charge.storageBytes.value, charge.billedStorageBytes.value,
                      charge.storageAmount.value, charge.amount.value, entryID, position])
        }
    }

    /// The pool-month's status and free units used, creating it (open, nothing used) on
    /// first sight; remembered for the batch and kept current by the handlers.
    func poolMonth(_ pool: String, _ month: String) throws -> PoolMonthState {
        try db.remembered("pm:" + pool + "|" + month) {
            let rows = try db.execute("SELECT status, free_used FROM pool_months WHERE pool = $1 AND month = $2", [pool, month])
            if rows.rowCount == 1 {
                return PoolMonthState(status: try rows[0].requireString(0), freeUsed: try rows[0].requireInt64(1))
            }
            db.enqueue("INSERT INTO pool_months (pool, month) VALUES ($1, $2) ON CONFLICT DO NOTHING", [pool, month])
            return PoolMonthState(status: "open", freeUsed: 0)
        }
    }

    /// The pool funding `project` at `instant`: the latest funding that took effect at or
    /// before it, or the project's first one for an instant before its creation.
    func poolOf(project: String, at instant: Timestamp) throws -> Pool {
        let history: [(effective: Int64, position: Int64, pool: String)] = try db.remembered("funding:" + project) {
            try db.execute("SELECT effective_us, position, pool FROM funding WHERE project_id = $1 ORDER BY effective_us, position",
                           [project]).rows.map { (try $0.requireInt64(0), try $0.requireInt64(1), try $0.requireString(2)) }
        }
        guard let first = history.first else { throw ProjectionError("usage for project \(project), which does not exist") }
        let chosen = history.last { $0.effective <= instant.microseconds } ?? first
        guard let pool = Pool(chosen.pool) else { throw ProjectionError("funding of \(project) names \(chosen.pool)") }
        return pool
    }

    private func unitPrice() throws -> Int64 {
        try db.remembered("unit_price") {
            let rows = try db.execute("SELECT unit_price FROM pricing")
            return rows.rowCount == 0 ? 0 : try rows[0].requireInt64(0)
        }
    }
}
