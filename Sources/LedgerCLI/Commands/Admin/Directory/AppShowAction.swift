import LedgerDomain
import LedgerJSON

/// `ledger admin app show`: one app as the catalog serves it (products, checkout,
/// campaigns) and its publishable keys by prefix.
struct AppShowAction: AdminAction {
    static let words = ["app", "show"]
    static let synopsis = "--id ID"
    static let summary = "Show an app: bundle id, products with prices, checkout, campaigns, publishable keys (prefixes only)."
    static let valued: Set<String> = ["id"]
    static let isOperatorAct = false

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "app")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let view = try AppListAction.app(id, session: session)
        let (app, catalog) = (view.app, view.catalog)
        var receipt = AdminReceipt()
        receipt.fields["app"] = try JSONValueEncoder().encode(app)
        receipt.fields["products"] = try JSONValueEncoder().encode(catalog.products)
        receipt.fields["checkout"] = try JSONValueEncoder().encode(catalog.checkout)
        receipt.fields["campaigns"] = try CampaignListAction.json(catalog)
        receipt.lines = ["app \(app.id): \(app.name), bundle \(app.bundleID), \(app.enabled ? "enabled" : "disabled") (created at position \(app.position))",
                         "checkout: \(catalog.checkout.sheetType.rawValue), \(catalog.checkout.isEnabled ? "enabled" : "disabled")"]
            + ProductListAction.lines(catalog) + CampaignListAction.lines(catalog)
            + (app.keys.isEmpty ? ["no publishable keys"] : TextTable.lines(["key", "mode", "prefix", "revoked"],
                app.keys.map { [$0.keyID, $0.mode, $0.prefix + "…", $0.revoked ? "yes" : "no"] }))
        return receipt
    }
}
