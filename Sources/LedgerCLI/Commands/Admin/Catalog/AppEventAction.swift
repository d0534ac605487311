import LedgerDomain

/// The catalog acts that append one event to an existing app's stream after judging the
/// request against the app's history (`AppHistory`).
protocol AppEventAction: AdminAction {
    var app: String { get }
    /// The event to append; throws `AdminError` when the history forbids the request.
    func event(for history: AppHistory) throws -> any DomainEvent
}

extension AppEventAction {
    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let history = try AppStream.load(app, session: session)
        let event = try session.event(try event(for: history), on: AppStream.name(app))
        return AdminReceipt(events: try AppStream.append([event], after: history, session: session))
    }
}
