import EventStore
import LedgerDomain

extension BillingFold {
    /// U4: counted units take what is left of the pool's free limit, in log order; the
    /// rest is billed at the unit price in force (in log order) now.
    func usageRecorded(_ e: UsageRecorded) throws {
        let pool = try poolOf(project: e.projectID, at: event.occurredAt)
        let month = UTCMonth(containing: event.occurredAt).description
        try db.execute("INSERT INTO pool_months (pool, month) VALUES ($1, $2) ON CONFLICT DO NOTHING", [pool.description, month])
        let state = try db.execute("SELECT status, free_used FROM pool_months WHERE pool = $1 AND month = $2",
                                   [pool.description, month])[0]
        guard try state.requireString(0) == "open" else {
            // Recorded after the month started closing: kept, never billed (docs/billing.md).
            try db.execute("""
                INSERT INTO late_usage (position, usage_id, project_id, pool, month, meter, quantity)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, [position, e.usageID, e.projectID, pool.description, month, e.meter.rawValue, e.quantity])
            return
        }
        try db.execute("INSERT INTO project_months (project_id, month, pool) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                       [e.projectID, month, pool.description])
        switch e.meter {
        case .apiRequests, .streamEvents, .webhookDeliveries:
            let freeUsed = try state.requireInt64(1)
            let free = min(e.quantity, max(0, BillingRules.freeUnitsPerMonth - freeUsed))
            let billed = e.quantity - free
            let amount = try (Millicredits(try unitPrice()) * billed).value
            try db.execute("UPDATE pool_months SET free_used = free_used + $3 WHERE pool = $1 AND month = $2",
                           [pool.description, month, free])
            try db.execute("""
                UPDATE project_months SET \(e.meter.rawValue) = \(e.meter.rawValue) + $4, free_units = free_units + $5,
                    billed_units = billed_units + $6, units_amount = units_amount + $7
                WHERE project_id = $1 AND month = $2 AND pool = $3
                """, [e.projectID, month, pool.description, e.quantity, free, billed, amount])
        case .storageBytes:
            try db.execute("""
                UPDATE project_months SET storage_peak = greatest(storage_peak, $4)
                WHERE project_id = $1 AND month = $2 AND pool = $3
                """, [e.projectID, month, pool.description, e.quantity])
        case .bytesServed, .bytesReceived:
            try db.execute("""
                UPDATE project_months SET \(e.meter.rawValue) = \(e.meter.rawValue) + $4
                WHERE project_id = $1 AND month = $2 AND pool = $3
                """, [e.projectID, month, pool.description, e.quantity])
        }
    }

    /// Freezes the month: what it owes is what was folded before this position, priced with
    /// the storage price and allowance in force now, whatever is appended before it closes.
    func monthClosing(_ e: MonthClosing) throws {
        try ensurePool(e.pool)
        let pricing = try db.execute("SELECT storage_price FROM pricing")
        let storagePrice = pricing.rowCount == 0 ? 0 : try pricing[0].requireInt64(0)
        let allowance = try db.execute("SELECT allowance_storage_bytes FROM pools WHERE pool = $1", [e.pool.description])[0].requireInt64(0)
        try db.execute("""
            INSERT INTO pool_months (pool, month, status, closing_position, closing_allowance_bytes, closing_storage_price)
            VALUES ($1, $2, 'closing', $3, $4, $5)
            ON CONFLICT (pool, month) DO UPDATE SET status = 'closing', closing_position = excluded.closing_position,
                closing_allowance_bytes = excluded.closing_allowance_bytes, closing_storage_price = excluded.closing_storage_price
            """, [e.pool.description, e.month.description, position, allowance, storagePrice])
    }

    /// The recorded charges post as `usage_charge` entries, one per project that owes.
    func monthClosed(_ e: MonthClosed) throws {
        try db.execute("""
            INSERT INTO pool_months (pool, month, status, closed_position) VALUES ($1, $2, 'closed', $3)
            ON CONFLICT (pool, month) DO UPDATE SET status = 'closed', closed_position = excluded.closed_position
            """, [e.pool.description, e.month.description, position])
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
            try db.execute("""
                INSERT INTO charges (pool, month, project_id, units, free_units, billed_units, units_amount, storage_bytes,
                                     billed_storage_bytes, storage_amount, amount, entry_id, position)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                """, [e.pool.description, e.month.description, charge.projectID, charge.units, charge.freeUnits,
                      charge.billedUnits, charge.unitsAmount.value, charge.storageBytes, charge.billedStorageBytes,
                      charge.storageAmount.value, charge.amount.value, entryID, position])
        }
    }

    /// The pool funding `project` at `instant`: the latest funding that took effect at or
    /// before it, or the project's first one for an instant before its creation.
    func poolOf(project: String, at instant: Timestamp) throws -> Pool {
        let rows = try db.execute("""
            (SELECT pool FROM funding WHERE project_id = $1 AND effective_us <= $2 ORDER BY effective_us DESC, position DESC LIMIT 1)
            UNION ALL
            (SELECT pool FROM funding WHERE project_id = $1 ORDER BY effective_us, position LIMIT 1)
            """, [project, instant.microseconds])
        guard rows.rowCount > 0, let pool = Pool(try rows[0].requireString(0)) else {
            throw ProjectionError("usage for project \(project), which does not exist")
        }
        return pool
    }

    private func unitPrice() throws -> Int64 {
        let rows = try db.execute("SELECT unit_price FROM pricing")
        return rows.rowCount == 0 ? 0 : try rows[0].requireInt64(0)
    }
}
