import LedgerDomain
import LedgerServices

/// `ledger admin project create`: `project.created` on a new `project-<id>` stream.
struct ProjectCreateAction: AdminAction {
    static let words = ["project", "create"]
    static let synopsis = "--id ID --name NAME (--self-paying | --payer ID)"
    static let summary = "Create a project, self-paying (its own pool project:ID) or funded by an existing payer."
    static let valued: Set<String> = ["id", "name", "payer"]
    static let boolean: Set<String> = ["self-paying"]

    let id: String
    let name: String
    let funding: Funding

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "project")
        name = try options.text("name", maximumLength: 200)
        funding = try options.funding()
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(ProjectCreateAct(id: id, name: name, funding: funding)))
    }
}
