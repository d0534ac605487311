import LedgerDomain
import LedgerServices

/// `ledger admin project fund`: `project.funding_changed` on `project-<id>`.
struct ProjectFundAction: AdminAction {
    static let words = ["project", "fund"]
    static let synopsis = "--id ID (--self-paying | --payer ID) [--effective-at RFC3339]"
    static let summary = "Change who pays for a project from an instant on (default now; never in the past)."
    static let valued: Set<String> = ["id", "payer", "effective-at"]
    static let boolean: Set<String> = ["self-paying"]

    let id: String
    let funding: Funding
    let effectiveAt: Timestamp?

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "project")
        funding = try options.funding()
        effectiveAt = try options.timestamp("effective-at")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(ProjectFundAct(id: id, funding: funding, effectiveAt: effectiveAt)))
    }
}
