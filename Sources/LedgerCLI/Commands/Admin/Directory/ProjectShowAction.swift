import LedgerDomain
import LedgerJSON
import LedgerServices
import Projections

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
        try session.catchUp(BillingProjection())
        guard let project = try session.billing.projects(id: id, now: session.now).first else {
            throw AdminError(.notFound, "project \(id) does not exist")
        }
        let keys = try session.billing.keys(of: KeyPrincipal(kind: .project, id: id))
        let balance = try session.answer(BalanceQuery(.project(id)))
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
