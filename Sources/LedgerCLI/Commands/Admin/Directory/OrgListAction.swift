import LedgerJSON
import Projections

/// `ledger admin org list`: every organization with its admins and education status.
struct OrgListAction: AdminAction {
    static let words = ["org", "list"]
    static let synopsis = ""
    static let summary = "List the organizations: id, name, reseller, staff education decision, admins."
    static let valued: Set<String> = []
    static let isOperatorAct = false

    init(_ options: AdminOptions) throws {}

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        try session.catchUp(OrganizationsProjection())
        let orgs = try OrganizationsReadModel(pool: session.pool).organizations()
        var receipt = AdminReceipt()
        receipt.fields["organizations"] = try JSONValueEncoder().encode(orgs)
        receipt.lines = orgs.isEmpty ? ["no organizations"] : TextTable.lines(
            ["org", "name", "reseller", "education", "admins"],
            orgs.map { [$0.id, $0.name, $0.resellerID ?? "-", Self.education($0), $0.admins.joined(separator: ",")] })
        return receipt
    }

    /// O8/O9: a staff decision, else the school domain that made it eligible, else none.
    static func education(_ org: OrganizationsReadModel.Record) -> String {
        switch org.staffEducation {
        case true?: return "staff: yes"
        case false?: return "staff: no"
        case nil: return org.autoEducationDomain.map { "auto: " + $0 } ?? "-"
        }
    }
}
