import EventStore
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
    func event(_ session: AdminSession, on stream: String) throws -> EventToAppend {
        if let reseller { return try session.event(DelegatedToReseller(orgID: org, resellerID: reseller), on: stream) }
        return try session.event(DelegationEnded(orgID: org), on: stream)
    }
}
