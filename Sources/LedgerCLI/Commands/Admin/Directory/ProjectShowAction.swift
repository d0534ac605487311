import LedgerJSON
import LedgerServices

/// `ledger admin project show`: one project, its funding history, its balance (as
/// `GET /v1/projects/{id}/balance` answers it) and its keys.
struct ProjectShowAction: AdminAction {
    static let words = ["project", "show"]
    static let synopsis = "--id ID"
    static let summary = "Show a project: the pool funding it now and every funding change, its balance, its keys (prefixes only)."
    static let valued: Set<String> = ["id"]
    static let isOperatorAct = false

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "project")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let overview = try session.answerCaughtUp(ProjectOverviewQuery(id)) else {
            throw AdminError(.notFound, "project \(id) does not exist")
        }
        let (project, keys, balance) = (overview.project, overview.keys, overview.balance)
        var receipt = AdminReceipt()
        receipt.fields["project"] = try JSONValueEncoder().encode(project)
        receipt.fields["keys"] = try JSONValueEncoder().encode(keys)
        receipt.fields["balance"] = try balance.map { try JSONValueEncoder().encode($0) } ?? .null
        receipt.lines = ["project \(project.id): \(project.name) (created at position \(project.position))",
                         "funded now by \(project.pool)"]
            + project.funding.map { "  funding \($0.pool) from \($0.effectiveAt) (position \($0.position))" }
            + (balance?.lines ?? []) + KeyListAction.lines(keys)
        return receipt
    }
}
