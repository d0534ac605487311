import EventStore
import LedgerDomain

extension BillingFold {
    func creditPosted(_ e: CreditPosted) throws {
        try ensurePool(e.pool)
        try post(Entry(index: 0, kind: "credit", source: e.source.rawValue, amount: e.amount.value, projectID: nil,
                       pool: e.pool, month: nil, holdID: nil, corrects: nil, description: e.description),
                 to: [Self.account(e.pool)], balance: BalanceColumn(e.source))
    }

    /// J3: a new entry that names the original; posted to the accounts the original was.
    func entryCorrected(_ e: EntryCorrected) throws {
        let original = try db.execute("""
            SELECT account, project_id, pool, month FROM journal WHERE entry_id = $1 ORDER BY account
            """, [e.entryID])
        guard original.rowCount > 0, let poolText = original[0].string(2), let pool = Pool(poolText) else {
            throw ProjectionError("entry.corrected names \(e.entryID), which is not in the journal")
        }
        let accounts = try original.rows.map { try $0.requireString(0) }
        let projectID = original[0].string(1)
        try post(Entry(index: 0, kind: "correction", source: nil, amount: e.amount.value, projectID: projectID, pool: pool,
                       month: original[0].string(3), holdID: nil, corrects: e.entryID, description: e.reason),
                 to: accounts, balance: .correction)
        let correctionID = JournalEntryID(position: position, index: 0).description
        let actor = (try? event.metadata())??.actor.description ?? "unknown"
        for account in accounts {
            db.enqueue("""
                INSERT INTO corrections (entry_id, correction_id, account, position, amount, reason, actor, occurred_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING
                """, [e.entryID, correctionID, account, position, e.amount.value, e.reason, actor, occurredAt])
        }
    }

    func holdPlaced(_ e: HoldPlaced) throws {
        try ensurePool(e.pool)
        db.enqueue("""
            INSERT INTO holds (hold_id, project_id, pool, amount, status, position) VALUES ($1, $2, $3, $4, 'open', $5)
            """, [e.holdID, e.projectID, e.pool.description, e.amount.value, position])
        for account in Set(Self.accounts(project: e.projectID, pool: e.pool)) {
            try addToBalance(account, pool: e.pool, .holdHeld, e.amount.value)
        }
    }

    func holdCaptured(_ e: HoldCaptured) throws {
        let hold = try openHold(e.holdID)
        guard (0...hold.amount).contains(e.amount.value) else {
            throw ProjectionError("hold.captured takes \(e.amount) from hold \(e.holdID), which holds \(hold.amount)")
        }
        try settle(hold, status: "captured", captured: e.amount.value)
        try post(Entry(index: 0, kind: "hold_capture", source: nil, amount: -e.amount.value, projectID: hold.project,
                       pool: hold.pool, month: nil, holdID: e.holdID, corrects: nil, description: "capture of hold \(e.holdID)"),
                 to: Self.accounts(project: hold.project, pool: hold.pool), balance: .holdPosted)
    }

    func holdReleased(_ e: HoldReleased) throws {
        try settle(try openHold(e.holdID), status: "released", captured: nil)
    }

    private struct OpenHold { var id: String; var project: String; var pool: Pool; var amount: Int128 }

    private func openHold(_ id: String) throws -> OpenHold {
        let rows = try db.execute("SELECT project_id, pool, amount FROM holds WHERE hold_id = $1 AND status = 'open'", [id])
        guard rows.rowCount == 1, let pool = Pool(try rows[0].requireString(1)) else {
            throw ProjectionError("hold \(id) is not open")
        }
        return OpenHold(id: id, project: try rows[0].requireString(0), pool: pool, amount: Int128(try rows[0].requireInt64(2)))
    }

    private func settle(_ hold: OpenHold, status: String, captured: Int128?) throws {
        db.enqueue("UPDATE holds SET status = $2, captured = $3 WHERE hold_id = $1 AND status = 'open'",
                       [hold.id, status, captured])
        for account in Set(Self.accounts(project: hold.project, pool: hold.pool)) {
            try addToBalance(account, pool: hold.pool, .holdHeld, -hold.amount)
        }
    }
}
