import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin app list`: every app of the catalog, enabled or not, with its keys.
struct AppListAction: AdminAction {
    static let words = ["app", "list"]
    static let synopsis = ""
    static let summary = "List the catalog's apps: id, name, bundle id, enabled, products, publishable keys."
    static let valued: Set<String> = []
    static let isOperatorAct = false

    init(_ options: AdminOptions) throws {}

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let listings = try session.answerCaughtUp(AppsQuery()) else { throw Self.catalogNotThereYet }
        let apps = listings.map(\.app)
        var receipt = AdminReceipt()
        receipt.fields["apps"] = try JSONValueEncoder().encode(apps)
        receipt.lines = listings.isEmpty ? ["no apps"] : TextTable.lines(
            ["app", "name", "bundle_id", "enabled", "products", "keys"],
            listings.map { [$0.app.id, $0.app.name, $0.app.bundleID, $0.app.enabled ? "yes" : "no", String($0.products),
                            String($0.app.keys.filter { !$0.revoked }.count)] },
            rightAligned: [4, 5])
        return receipt
    }

    /// One app as operators see it, once the IAP projection has reached the log's head; a
    /// refusal when there is no such app.
    static func app(_ id: String, session: AdminSession) throws -> AppView {
        guard let view = try session.answerCaughtUp(AppQuery(id)) else { throw AdminError(.notFound, "app \(id) does not exist") }
        return view
    }

    /// The refusal while the IAP projection does not exist.
    static let catalogNotThereYet = AdminError(.projectionUnavailable,
        "the IAP projection does not exist yet: start the projector (`ledger project`) and retry")
}
