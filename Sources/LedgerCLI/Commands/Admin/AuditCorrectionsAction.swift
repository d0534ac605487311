import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger audit corrections`: the corrections posted (J3), across every account or one
/// project's or payer's, oldest first, with who posted each, when and why.
struct AuditCorrectionsAction: AdminAction {
    static let words = ["corrections"]
    static let synopsis = "[--project ID | --payer ID] [--actor NAME] [--since TIME] [--until TIME] [--csv]"
    static let summary = "List corrections, all or one account's, by operator and time: correction id, corrected entry, amount, who, when, why."
    static let valued: Set<String> = ["project", "payer", "actor", "since", "until"]
    static let boolean: Set<String> = ["csv"]
    static let isOperatorAct = false

    let account: Pool?
    let query: CorrectionsQuery
    let csv: Bool

    init(_ options: AdminOptions) throws {
        let given = ["project", "payer"].filter(options.has)
        guard given.count <= 1 else { throw UsageError("give only one of --project, --payer") }
        switch given.first {
        case "project": account = .project(try options.identifier("project", "project"))
        case "payer": account = .payer(try options.identifier("payer", "payer"))
        default: account = nil
        }
        let since = try Self.instant(options, "since")
        let until = try Self.instant(options, "until")
        if let since, let until, since >= until { throw UsageError("--since must be before --until") }
        query = CorrectionsQuery(account: account, actor: try options.optionalText("actor", maximumLength: 200),
                                 since: since, until: until)
        csv = options.flag("csv")
    }

    /// An RFC 3339 instant, or a day `YYYY-MM-DD` meaning its first instant in UTC.
    static func instant(_ options: AdminOptions, _ name: String) throws -> Timestamp? {
        guard let text = options.arguments.value(name) else { return nil }
        if let time = Timestamp(dayOrInstant: text) { return time }
        return try options.timestamp(name)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let rows = try session.answerCaughtUp(query) else {
            switch account {
            case .payer(let id)?: throw AdminError(.notFound, "payer \(id) does not exist")
            case .project(let id)?: throw AdminError(.notFound, "project \(id) does not exist")
            case nil: preconditionFailure("corrections across every account are always answered")
            }
        }
        var receipt = AdminReceipt()
        receipt.fields["account"] = account.map { .string($0.description) } ?? .null
        receipt.fields["corrections"] = try JSONValueEncoder().encode(rows)
        if csv {
            receipt.lines = rows.csvLines
            return receipt
        }
        receipt.lines.append("corrections\(account.map { " of \($0)" } ?? ""): \(rows.count)")
        for row in rows {
            receipt.lines.append("\(row.correctionID) corrects \(row.corrects) by \(row.amount) on \(row.account): \(row.actor) at \(row.at) (position \(row.position))")
            receipt.lines.append("  why: \(row.reason)")
        }
        return receipt
    }
}
