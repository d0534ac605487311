import LedgerDomain

/// `ledger admin org admin add`: a designated billing administrator (O1).
struct OrgAdminAddAction: OrgEventAction {
    static let words = ["org", "admin", "add"]
    static let synopsis = "--org ID --person ID"
    static let summary = "Designate a billing administrator of an organization (O1)."
    static let valued: Set<String> = ["org", "person"]
    let org: String
    let person: String
    init(_ options: AdminOptions) throws {
        org = try options.identifier("org", "organization")
        person = try options.text("person", maximumLength: 200)
    }
    func decide() throws -> Decision { try OrganizationDecider.designateAdmin(org: org, person: person) }
}
