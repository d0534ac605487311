import LedgerJSON
import LedgerServices

/// `ledger admin org list`: every organization with its admins and education status.
struct OrgListAction: AdminAction {
    static let words = ["org", "list"]
    static let synopsis = ""
    static let summary = "List the organizations: id, name, reseller, staff education decision, admins."
    static let valued: Set<String> = []
    static let isOperatorAct = false

    init(_ options: AdminOptions) throws {}

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let orgs = try session.answerCaughtUp(OrganizationsQuery()) ?? []
        var receipt = AdminReceipt()
        receipt.fields["organizations"] = try JSONValueEncoder().encode(orgs)
        receipt.lines = orgs.isEmpty ? ["no organizations"] : TextTable.lines(
            ["org", "name", "reseller", "education", "admins"],
            orgs.map { [$0.id, $0.name, $0.resellerID ?? "-", Self.education($0.education), $0.admins.joined(separator: ",")] })
        return receipt
    }

    /// O8/O9 as `org list` and `org show` print it.
    static func education(_ status: EducationStatus) -> String {
        switch status {
        case .staff(eligible: true): return "staff: yes"
        case .staff(eligible: false): return "staff: no"
        case .domain(let domain): return "auto: " + domain
        case .undecided: return "-"
        }
    }
}
