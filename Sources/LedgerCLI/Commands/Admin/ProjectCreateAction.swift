import EventStore
import LedgerDomain

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
        var payers: [String] = []
        if case .payer(let payer) = funding { payers.append(payer) }
        let state = try session.accountsState(payers: payers)
        let decision = try session.decide { try AccountsDecider.createProject(id: id, name: name, funding: funding, state: state) }
        let stream = Pool.project(id).ownerStream
        return AdminReceipt(events: try session.append(decision) { error in
            guard error.code == .wrongExpectedVersion else { return nil }
            if error.stream == stream { return AdminError(.alreadyExists, "project \(id) already exists") }
            if case .payer(let payer) = funding { return AdminError(.notFound, "payer \(payer) does not exist") }
            return nil
        })
    }
}
