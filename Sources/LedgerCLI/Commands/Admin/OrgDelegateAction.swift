import LedgerDomain

/// `ledger admin org delegate` / `--end`: delegation to a reseller, which pays the plan (O3).
struct OrgDelegateAction: OrgEventAction {
    static let words = ["org", "delegate"]
    static let synopsis = "--org ID (--reseller ID | --end)"
    static let summary = "Delegate an organization to a reseller, or end the delegation (O2, O3)."
    static let valued: Set<String> = ["org", "reseller"]
    static let boolean: Set<String> = ["end"]
    let org: String
    let reseller: String?
    init(_ options: AdminOptions) throws {
        org = try options.identifier("org", "organization")
        reseller = try options.exactlyOne(of: ["reseller", "end"]) == "end" ? nil : try options.identifier("reseller", "reseller")
    }
    func decide() throws -> Decision { try OrganizationDecider.delegate(org: org, reseller: reseller) }
}
