import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin month close`: the two-phase close of docs/billing.md.
///
/// 1. `usage.month_closing` on the pool owner's stream stops the month: the projector
///    folds it, and what it folded before it is the month's usage.
/// 2. Once the projection has passed it, the charges are read and recorded as facts in
///    `usage.month_closed`, which posts them.
///
/// A close that died between the two finds the month `closing` and resumes at step 2.
/// Both appends carry idempotency keys, so two operators closing at once write each
/// event once.
struct MonthCloseAction: AdminAction {
    static let words = ["month", "close"]
    static let synopsis = "--pool payer:ID|project:ID --month YYYY-MM [--force]"
    static let summary = "Close a pool's month: record and post each project's usage charge (resumes an interrupted close)."
    static let valued: Set<String> = ["pool", "month"]
    static let boolean: Set<String> = ["force"]
    /// Its two appends carry keys that name the month, so a re-run resumes where it stopped.
    static let appendsUnderSessionKey = false

    let pool: Pool
    let month: UTCMonth
    let force: Bool

    init(_ options: AdminOptions) throws {
        pool = try options.pool("pool")
        month = try options.month("month")
        force = options.flag("force")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let poolMonth = PoolMonth(pool, month)
        let flow = MonthCloseDecider.closedKey(poolMonth)
        var receipt = AdminReceipt()
        receipt.events += try session.perform(MonthClosingAct(poolMonth, force: force), correlationID: flow)
        // Nothing appended: a close that stopped after its first event, which phase 2 resumes.
        let resumed = receipt.events.isEmpty
        if resumed { receipt.notes.append("\(month) is already closing for \(pool): resuming the interrupted close") }
        let closing = try session.perform(MonthClosedAct(poolMonth), correlationID: flow)
        receipt.events += closing
        let closed = try JSONValueDecoder().decode(MonthClosed.self, from: closing[0].data)
        return try report(closed, into: receipt, resumed: resumed)
    }

    private func report(_ closed: MonthClosed, into receipt: AdminReceipt, resumed: Bool) throws -> AdminReceipt {
        var receipt = receipt
        let total = try Millicredits.sum(closed.charges.map(\.amount))
        receipt.fields["pool"] = .string(pool.description)
        receipt.fields["month"] = .string(month.description)
        receipt.fields["resumed"] = .bool(resumed)
        receipt.fields["charges"] = try JSONValueEncoder().encode(closed.charges)
        receipt.fields["total"] = .string(total.canonical)
        receipt.lines.append("")
        receipt.lines.append("charges of \(pool) for \(month) (allowance \(closed.allowanceStorageBytes) bytes, storage price \(closed.storagePricePerGiBMonth) per GiB-month):")
        if closed.charges.isEmpty { receipt.lines.append("  no usage") }
        for c in closed.charges {
            receipt.lines.append("  project \(c.projectID): \(c.amount) = units \(c.unitsAmount) (\(c.units) counted, \(c.freeUnits) free, \(c.billedUnits) billed)"
                + " + storage \(c.storageAmount) (peak \(c.storageBytes) bytes, \(c.billedStorageBytes) billed)")
        }
        receipt.lines.append("  total \(total)")
        return receipt
    }
}
