import LedgerDomain

/// `ledger admin org admin remove`.
struct OrgAdminRemoveAction: OrgEventAction {
    static let words = ["org", "admin", "remove"]
    static let synopsis = "--org ID --person ID"
    static let summary = "Remove a billing administrator of an organization."
    static let valued: Set<String> = ["org", "person"]
    let org: String
    let person: String
    init(_ options: AdminOptions) throws {
        org = try options.identifier("org", "organization")
        person = try options.text("person", maximumLength: 200)
    }
    func decide() throws -> Decision { try OrganizationDecider.removeAdmin(org: org, person: person) }
}
