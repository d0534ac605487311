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
        let stream = Pool.project(id).ownerStream
        var expected: [String: ExpectedVersion] = [stream: .noStream]
        if case .payer(let payer) = funding {
            try session.catchUp()
            try session.requirePayer(payer)
            // Also guarded in the append itself, in case the projection is behind a
            // concurrent change (it never is for a payer that exists: payers are never deleted).
            expected[Pool.payer(payer).ownerStream] = .streamExists
        }
        let appended = try session.append([try session.event(ProjectCreated(projectID: id, name: name, funding: funding), on: stream)],
                                          expecting: expected) { error in
            guard error.code == .wrongExpectedVersion else { return nil }
            if error.stream == stream { return AdminError(.alreadyExists, "project \(id) already exists") }
            if case .payer(let payer) = funding { return AdminError(.notFound, "payer \(payer) does not exist") }
            return nil
        }
        return AdminReceipt(events: appended)
    }
}
