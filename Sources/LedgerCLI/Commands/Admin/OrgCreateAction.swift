import Crypto
import LedgerDomain
import LedgerServices

/// `ledger admin org create`: `org.created` and, in the same append, the organization's
/// account token (O4: created once, here, and kept).
struct OrgCreateAction: AdminAction {
    static let words = ["org", "create"]
    static let synopsis = "--id ID --name NAME"
    static let summary = "Create an organization and its App Store account token."
    static let valued: Set<String> = ["id", "name"]

    let id: String
    let name: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "organization")
        name = try options.text("name", maximumLength: 200)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(OrgCreateAct(id: id, name: name)))
    }
}
