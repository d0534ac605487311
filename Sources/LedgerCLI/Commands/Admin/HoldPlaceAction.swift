import API
import LedgerDomain

/// `ledger admin hold place`: `hold.placed` on a new `hold-<id>` stream, on the pool that
/// funds the project now.
struct HoldPlaceAction: AdminAction {
    static let words = ["hold", "place"]
    static let synopsis = "--id ID --project ID --amount AMOUNT --description TEXT"
    static let summary = "Reserve an amount for a project on its current pool (reduces available, posts nothing)."
    static let valued: Set<String> = ["id", "project", "amount", "description"]

    let id: String
    let project: String
    let amount: Millicredits
    let description: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "hold")
        project = try options.identifier("project", "project")
        amount = try options.amount("amount", .positive)
        description = try options.text("description")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        try session.catchUp()
        try session.requireProject(project)
        guard let pool = try BillingAdminQueries.currentPool(session.pool, project: project, now: session.now) else {
            throw AdminError(.notFound, "project \(project) has no pool")
        }
        let stream = HoldStream.name(id)
        let event = HoldPlaced(holdID: id, projectID: project, pool: pool, amount: amount, description: description)
        let appended = try session.append([try session.event(event, on: stream)],
                                          expecting: [stream: .noStream, Pool.project(project).ownerStream: .streamExists]) { error in
            guard error.code == .wrongExpectedVersion else { return nil }
            return error.stream == stream ? AdminError(.alreadyExists, "hold \(id) already exists")
                                          : AdminError(.notFound, "project \(project) does not exist")
        }
        return AdminReceipt(events: appended)
    }
}
