import LedgerDomain
import Postgres
import ProjectionEngine

extension BillingBatch {
    /// Writes what the batch changed: new rows by COPY, each changed aggregate in one
    /// multi-row statement.
    func write() throws {
        // First: the rows `streamJournal` already sent are in a COPY still open.
        try db.copy(into: "journal", columns: Self.journalColumns, binary: journal)
        try db.copy(into: "payers", columns: ["payer_id", "name", "position"], rows: payers)
        try db.copy(into: "projects", columns: ["project_id", "name", "position"], rows: projects)
        try db.copy(into: "funding", columns: ["project_id", "effective_us", "position", "pool"], rows: funding)
        try db.copy(into: "keys", columns: ["sha256", "key_id", "principal_kind", "principal_id", "prefix", "position"], rows: keys)
        try db.copy(into: "corrections", columns: ["entry_id", "correction_id", "account", "position", "amount", "reason", "actor",
                                                  "occurred_at"], rows: corrections)
        try db.copy(into: "charges", columns: ["pool", "month", "project_id", "units", "free_units", "billed_units", "units_amount",
                                              "storage_bytes", "billed_storage_bytes", "storage_amount", "amount", "entry_id",
                                              "position"], rows: charges)
        try db.copy(into: "late_usage", columns: ["position", "usage_id", "project_id", "pool", "month", "meter", "quantity"],
                    rows: lateUsage)
        if !revokedKeys.isEmpty {
            db.enqueue("UPDATE keys SET revoked = true WHERE key_id = ANY($1::text[])", [PostgresTextArray(revokedKeys)])
        }
        writePools()
        writeHolds()
        writePoolMonths()
        writeProjectMonths()
        writeBalances()
    }

    static let journalColumns = ["account", "position", "idx", "entry_id", "kind", "source", "amount", "project_id", "pool", "month",
                                 "hold_id", "corrects", "description", "occurred_at"]

    /// Sends the journal's rows made so far once they fill `journalStreamBytes`, while the
    /// batch goes on folding: the server inserts them meanwhile, where it used to wait for
    /// the whole batch's fold and then make the fold wait for its inserts
    /// (docs/benchmarks.md). A read the fold makes meanwhile ends that COPY; the next rows
    /// open another.
    func streamJournal() throws {
        guard journal.bytes.count >= journalStreamBytes else { return }
        try db.stream(into: "journal", columns: Self.journalColumns, binary: &journal)
    }

    private func writePools() {
        var ensured = RowBuffer(columns: 1)
        for pool in pools.keys { ensured.append([pool]) }
        db.enqueue("INSERT INTO pools (pool) SELECT * FROM unnest($1::text[]) ON CONFLICT DO NOTHING", rows: ensured)
        var planned = RowBuffer(columns: 3)
        for pool in pools.keys { if let plan = plans[pool] { planned.append([pool, plan.plan, plan.allowance]) } }
        db.enqueue("""
            UPDATE pools p SET plan = u.plan, allowance_storage_bytes = u.allowance
            FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u (pool, plan, allowance) WHERE p.pool = u.pool
            """, rows: planned)
        if let pricing {
            db.enqueue("""
                INSERT INTO pricing (unit_price, storage_price, position) VALUES ($1, $2, $3)
                ON CONFLICT (singleton) DO UPDATE SET unit_price = excluded.unit_price,
                    storage_price = excluded.storage_price, position = excluded.position
                """, [pricing.unit, pricing.storage, pricing.position])
        }
    }

    private func writeHolds() {
        var placed = RowBuffer(columns: 7)
        for id in newHolds.keys {
            guard let hold = holds[id] ?? nil else { continue }
            placed.append([id, hold.project, hold.pool.description, hold.amount, hold.status, hold.captured, hold.position])
        }
        db.enqueue("""
            INSERT INTO holds (hold_id, project_id, pool, amount, status, captured, position)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[])
            """, rows: placed)
        var settled = RowBuffer(columns: 3)
        for id in settledHolds.keys {
            guard let hold = holds[id] ?? nil else { continue }
            settled.append([id, hold.status, hold.captured])
        }
        db.enqueue("""
            UPDATE holds h SET status = u.status, captured = u.captured
            FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u (hold_id, status, captured) WHERE h.hold_id = u.hold_id
            """, rows: settled)
    }

    private func writePoolMonths() {
        var rows = RowBuffer(columns: 8)
        for key in poolMonthOrder.keys {
            let m = poolMonths[key]!
            rows.append([key.pool, key.month, m.status.rawValue, m.freeUsed, m.closingPosition, m.closedPosition, m.closingAllowance,
                         m.closingStoragePrice])
        }
        db.enqueue("""
            INSERT INTO pool_months (pool, month, status, free_used, closing_position, closed_position,
                                     closing_allowance_bytes, closing_storage_price)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
                                 $8::bigint[])
            ON CONFLICT (pool, month) DO UPDATE SET status = excluded.status, free_used = excluded.free_used,
                closing_position = excluded.closing_position, closed_position = excluded.closed_position,
                closing_allowance_bytes = excluded.closing_allowance_bytes, closing_storage_price = excluded.closing_storage_price
            """, rows: rows)
    }

    private func writeProjectMonths() {
        var rows = RowBuffer(columns: 12)
        for (key, d) in zip(projectMonths.keys, projectMonths.values) {
            rows.append([key.project, key.month, key.pool, d.counters[.apiRequests] ?? 0, d.counters[.streamEvents] ?? 0,
                         d.counters[.webhookDeliveries] ?? 0, d.freeUnits, d.billedUnits, d.unitsAmount, d.storagePeak,
                         d.counters[.bytesServed] ?? 0, d.counters[.bytesReceived] ?? 0])
        }
        db.enqueue("""
            INSERT INTO project_months AS m (project_id, month, pool, api_requests, stream_events, webhook_deliveries, free_units,
                                             billed_units, units_amount, storage_peak, bytes_served, bytes_received)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[],
                                 $8::numeric[], $9::numeric[], $10::bigint[], $11::numeric[], $12::numeric[])
            ON CONFLICT (project_id, month, pool) DO UPDATE SET api_requests = m.api_requests + excluded.api_requests,
                stream_events = m.stream_events + excluded.stream_events,
                webhook_deliveries = m.webhook_deliveries + excluded.webhook_deliveries,
                free_units = m.free_units + excluded.free_units, billed_units = m.billed_units + excluded.billed_units,
                units_amount = m.units_amount + excluded.units_amount,
                storage_peak = greatest(m.storage_peak, excluded.storage_peak),
                bytes_served = m.bytes_served + excluded.bytes_served, bytes_received = m.bytes_received + excluded.bytes_received
            """, rows: rows)
    }

    private func writeBalances() {
        let columns = BillingBalanceColumn.allCases
        var rows = RowBuffer(columns: 2 + columns.count)
        for (key, deltas) in zip(balances.keys, balances.values) {
            rows.append([key.account, key.pool] + columns.map { deltas[$0.ordinal] })
        }
        let names = columns.map(\.rawValue)
        db.enqueue("""
            INSERT INTO balances AS b (account, pool, \(names.joined(separator: ", ")))
            SELECT * FROM unnest($1::text[], $2::text[], \((3..<(3 + names.count)).map { "$\($0)::numeric[]" }.joined(separator: ", ")))
            ON CONFLICT (account, pool) DO UPDATE SET \(names.map { "\($0) = b.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """, rows: rows)
    }
}
