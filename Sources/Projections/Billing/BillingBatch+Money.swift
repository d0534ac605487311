import EventStore
import LedgerDomain
import ProjectionEngine

extension BillingBatch {
    /// A journal entry: to `accounts` (the consumer first, then the pool when they differ).
    struct Entry {
        var index: Int32
        var kind: String
        var source: String?
        var amount: Int128
        var projectID: String?
        var pool: Pool
        var month: String?
        var holdID: String?
        var corrects: String?
        var description: String
    }

    func post(_ entry: Entry, to accounts: [String], balance column: BillingBalanceColumn) {
        let entryID = JournalEntryID(position: position, index: entry.index)
        let id = entryID.description
        // Most entries post to one account: no set to build for it.
        let accounts = accounts.count == 1 ? accounts : Set(accounts).sorted()
        let pool = entry.pool.description
        for account in accounts {
            journal.startRow(fields: 14)
            journal.text(account)
            journal.int8(position)
            journal.int4(entry.index)
            journal.text(id)
            journal.text(entry.kind)
            journal.text(entry.source)
            journal.numeric(entry.amount)
            journal.text(entry.projectID)
            journal.text(pool)
            journal.text(entry.month)
            journal.text(entry.holdID)
            journal.text(entry.corrects)
            journal.text(entry.description)
            journal.timestamptz(unixMicroseconds: eventTime.microseconds)
            addToBalance(account, pool: entry.pool, column, entry.amount)
        }
        if keepsPostedEntries {
            postedEntries[entryID] = PostedEntry(accounts: accounts, project: entry.projectID, pool: entry.pool, month: entry.month)
        }
    }

    func creditPosted(_ e: CreditPosted) {
        ensurePool(e.pool)
        post(Entry(index: 0, kind: "credit", source: e.source.rawValue, amount: e.amount.value, projectID: nil,
                   pool: e.pool, month: nil, holdID: nil, corrects: nil, description: e.description),
             to: [Self.account(e.pool)], balance: BillingBalanceColumn(e.source))
    }

    /// J3: a new entry that names the original; posted to the accounts the original was.
    func entryCorrected(_ e: EntryCorrected) throws {
        let original = try postedEntry(e.entryID)
        post(Entry(index: 0, kind: "correction", source: nil, amount: e.amount.value, projectID: original.project,
                   pool: original.pool, month: original.month, holdID: nil, corrects: e.entryID, description: e.reason),
             to: original.accounts, balance: .correction)
        let correctionID = JournalEntryID(position: position, index: 0).description
        let actor = (try? event.metadata())??.actor.description ?? "unknown"
        for account in original.accounts {
            corrections.append([e.entryID, correctionID, account, position, e.amount.value, e.reason, actor, occurredAt])
        }
    }

    /// An entry of the journal: posted in this batch, or read from the table.
    private func postedEntry(_ id: String) throws -> PostedEntry {
        let key = JournalEntryID(id)
        if let key, let posted = postedEntries[key] { return posted }
        if !entryIndexKnown {
            if try db.execute(BillingSchema.entryIndexMissing).rowCount > 0 { try db.execute(BillingSchema.entryIndex) }
            entryIndexKnown = true
        }
        let rows = try db.execute("SELECT account, project_id, pool, month FROM journal WHERE entry_id = $1 ORDER BY account", [id])
        guard rows.rowCount > 0, let poolText = rows[0].string(2), let pool = Pool(poolText) else {
            throw ProjectionError("entry.corrected names \(id), which is not in the journal")
        }
        let entry = PostedEntry(accounts: try rows.rows.map { try $0.requireString(0) }, project: rows[0].string(1),
                                pool: pool, month: rows[0].string(3))
        if let key { postedEntries[key] = entry }
        return entry
    }

    func holdPlaced(_ e: HoldPlaced) {
        ensurePool(e.pool)
        holds[e.holdID] = Hold(project: e.projectID, pool: e.pool, amount: e.amount.value, status: "open", captured: nil,
                               position: position)
        newHolds.insert(e.holdID)
        for account in Set(Self.accounts(project: e.projectID, pool: e.pool)).sorted() {
            addToBalance(account, pool: e.pool, .holdHeld, e.amount.value)
        }
    }

    func holdCaptured(_ e: HoldCaptured) throws {
        let hold = try openHold(e.holdID)
        guard (0...hold.amount).contains(e.amount.value) else {
            throw ProjectionError("hold.captured takes \(e.amount) from hold \(e.holdID), which holds \(hold.amount)")
        }
        settle(e.holdID, hold, status: "captured", captured: e.amount.value)
        post(Entry(index: 0, kind: "hold_capture", source: nil, amount: -e.amount.value, projectID: hold.project,
                   pool: hold.pool, month: nil, holdID: e.holdID, corrects: nil, description: "capture of hold \(e.holdID)"),
             to: Self.accounts(project: hold.project, pool: hold.pool), balance: .holdPosted)
    }

    func holdReleased(_ e: HoldReleased) throws {
        settle(e.holdID, try openHold(e.holdID), status: "released", captured: nil)
    }

    private func openHold(_ id: String) throws -> Hold {
        if holds[id] == nil {
            let rows = try db.execute("SELECT project_id, pool, amount, status, captured, position FROM holds WHERE hold_id = $1", [id])
            if rows.rowCount == 1, let pool = Pool(try rows[0].requireString(1)) {
                holds[id] = Hold(project: try rows[0].requireString(0), pool: pool, amount: try rows[0].requireInt128(2),
                                 status: try rows[0].requireString(3), captured: rows[0].int128(4), position: try rows[0].requireInt64(5))
            } else {
                holds[id] = .some(nil)
            }
        }
        guard let hold = holds[id] ?? nil, hold.status == "open" else { throw ProjectionError("hold \(id) is not open") }
        return hold
    }

    private func settle(_ id: String, _ hold: Hold, status: String, captured: Int128?) {
        var settled = hold
        settled.status = status
        settled.captured = captured
        holds[id] = settled
        if !newHolds.contains(id) { settledHolds.insert(id) }
        for account in Set(Self.accounts(project: hold.project, pool: hold.pool)).sorted() {
            addToBalance(account, pool: hold.pool, .holdHeld, -hold.amount)
        }
    }
}
