import LedgerDomain
import LedgerServices

/// The organization acts that append one event to an existing `org-<id>` stream, as
/// `OrganizationDecider` decides it: the stream must exist, which the append itself
/// checks, so a missing organization is refused even without the projector.
protocol OrgEventAction: AdminAction {
    var org: String { get }
    func decide() throws -> Decision
}

extension OrgEventAction {
    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let decided = Result { try decide() }
        return AdminReceipt(events: try session.perform(OrgEventAct(org: org) { try decided.get() }))
    }
}
