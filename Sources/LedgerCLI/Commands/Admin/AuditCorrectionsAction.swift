import Projections
import LedgerDomain
import LedgerJSON

/// `ledger audit corrections`: every correction posted to a project's or payer's
/// account (J3), oldest first, with who posted it, when and why.
struct AuditCorrectionsAction: AdminAction {
    static let words = ["corrections"]
    static let synopsis = "(--project ID | --payer ID)"
    static let summary = "List the corrections posted to an account: correction id, corrected entry, amount, who, when, why."
    static let valued: Set<String> = ["project", "payer"]
    static let isOperatorAct = false

    let account: Pool

    init(_ options: AdminOptions) throws {
        switch try options.exactlyOne(of: ["project", "payer"]) {
        case "project": account = .project(try options.identifier("project", "project"))
        default: account = .payer(try options.identifier("payer", "payer"))
        }
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let state: AccountsDecider.State
        switch account {
        case .payer(let id): state = try session.accountsState(payers: [id])
        case .project(let id): state = try session.accountsState(projects: [id])
        }
        switch account {
        case .payer(let id) where !state.payers.contains(id): throw AdminError(.notFound, "payer \(id) does not exist")
        case .project(let id) where !state.projects.contains(id): throw AdminError(.notFound, "project \(id) does not exist")
        default: break
        }
        // Accounts are named as pools are: `project:<id>`, `payer:<id>`.
        let rows = try session.billing.corrections(account: account.description)
        var receipt = AdminReceipt()
        receipt.fields["account"] = .string(account.description)
        receipt.fields["corrections"] = try JSONValueEncoder().encode(rows)
        receipt.lines.append("corrections of \(account): \(rows.count)")
        for row in rows {
            receipt.lines.append("\(row.correctionID) corrects \(row.corrects) by \(row.amount): \(row.actor) at \(row.at) (position \(row.position))")
            receipt.lines.append("  why: \(row.reason)")
        }
        return receipt
    }
}
