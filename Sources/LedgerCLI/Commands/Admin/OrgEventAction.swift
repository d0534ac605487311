import EventStore
import LedgerDomain

/// The organization acts that append one event to an existing `org-<id>` stream: the
/// stream must exist, which the append itself checks, so a missing organization is
/// refused even without the projector.
protocol OrgEventAction: AdminAction {
    var org: String { get }
    func event(_ session: AdminSession, on stream: String) throws -> EventToAppend
}

extension OrgEventAction {
    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let stream = "org-" + org
        let event = try event(session, on: stream)
        return AdminReceipt(events: try session.append([event], expecting: [stream: .streamExists], refusal: { error in
            error.code == .wrongExpectedVersion && error.stream == stream
                ? AdminError(.notFound, "no organization \(org)") : nil
        }))
    }
}
