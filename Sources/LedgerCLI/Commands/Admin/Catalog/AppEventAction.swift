import LedgerDomain
import LedgerServices

/// A catalog act on an existing app: the app's stream is read, `CatalogDecider` decides,
/// and the decision is appended at the version that was read, so a change made meanwhile
/// is a conflict and nothing is written.
protocol AppEventAction: AdminAction {
    var app: String { get }
    func decide(_ state: AppState) throws -> Decision
}

extension AppEventAction {
    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let action = self
        return AdminReceipt(events: try session.perform(AppChangeAct(app: app) { state, _ in try action.decide(state) }))
    }
}
