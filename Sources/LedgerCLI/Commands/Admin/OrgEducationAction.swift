import LedgerDomain

/// `ledger admin org education`: staff's decision on education eligibility, final either
/// way (O9): automatic eligibility never overrides it.
struct OrgEducationAction: OrgEventAction {
    static let words = ["org", "education"]
    static let synopsis = "--org ID (--eligible | --not-eligible)"
    static let summary = "Record staff's final decision on an organization's education eligibility (O9)."
    static let valued: Set<String> = ["org"]
    static let boolean: Set<String> = ["eligible", "not-eligible"]
    let org: String
    let eligible: Bool
    init(_ options: AdminOptions) throws {
        org = try options.identifier("org", "organization")
        eligible = try options.exactlyOne(of: ["eligible", "not-eligible"]) == "eligible"
    }
    func decide() throws -> Decision { OrganizationDecider.decideEducation(org: org, eligible: eligible) }
}
