import LedgerDomain
import LedgerServices

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
        AdminReceipt(events: try session.perform(HoldPlaceAct(id: id, projectID: project, amount: amount, description: description)))
    }
}
