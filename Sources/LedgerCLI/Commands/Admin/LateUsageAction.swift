import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger audit late-usage` and `ledger admin month late-usage`: usage recorded after its
/// month had started closing, kept and never billed (docs/billing.md, "Late usage").
struct LateUsageAction: AdminAction {
    static let words = ["late-usage"]
    static let synopsis = "[--pool payer:ID|project:ID] [--month YYYY-MM] [--csv]"
    static let summary = "List usage recorded after its month started closing: never billed, for an operator to correct."
    static let valued: Set<String> = ["pool", "month"]
    static let boolean: Set<String> = ["csv"]
    static let isOperatorAct = false

    let pool: Pool?
    let month: UTCMonth?
    let csv: Bool

    init(_ options: AdminOptions) throws {
        pool = options.has("pool") ? try options.pool("pool") : nil
        month = options.has("month") ? try options.month("month") : nil
        csv = options.flag("csv")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let rows = try session.answerCaughtUp(LateUsageQuery(pool: pool, month: month)) ?? []
        var receipt = AdminReceipt()
        receipt.fields["late_usage"] = try JSONValueEncoder().encode(rows)
        if csv {
            receipt.lines = CSV.lines(header: ["position", "usage_id", "project_id", "pool", "month", "meter", "quantity"],
                                      rows.map { [String($0.position), $0.usageID, $0.projectID, $0.pool, $0.month, $0.meter, String($0.quantity)] })
            return receipt
        }
        receipt.lines.append("late usage\(pool.map { " of \($0)" } ?? "")\(month.map { " in \($0)" } ?? ""): \(rows.count)")
        for row in rows {
            receipt.lines.append("position \(row.position): \(row.usageID) of project \(row.projectID), \(row.quantity) \(row.meter), \(row.month) of \(row.pool) (never billed)")
        }
        return receipt
    }
}

/// The same list under `ledger admin month`.
struct MonthLateUsageAction: AdminAction {
    static let words = ["month", "late-usage"]
    static let synopsis = LateUsageAction.synopsis
    static let summary = LateUsageAction.summary
    static let valued = LateUsageAction.valued
    static let boolean = LateUsageAction.boolean
    static let isOperatorAct = false

    let list: LateUsageAction
    init(_ options: AdminOptions) throws { list = try LateUsageAction(options) }
    func perform(_ session: AdminSession) throws -> AdminReceipt { try list.perform(session) }
}
