import LedgerDomain
import LedgerJSON

/// `ledger admin product list`: an app's products, as `GET /v1/iap/products` lists them.
struct ProductListAction: AdminAction {
    static let words = ["product", "list"]
    static let synopsis = "--app ID"
    static let summary = "List an app's products: id, type, name, web price, StoreKit price, period, trial."
    static let valued: Set<String> = ["app"]
    static let isOperatorAct = false

    let app: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let catalog = try AppListAction.app(app, session: session).catalog
        var receipt = AdminReceipt()
        receipt.fields["app_id"] = .string(app)
        receipt.fields["products"] = try JSONValueEncoder().encode(catalog.products)
        receipt.lines = Self.lines(catalog)
        return receipt
    }

    static func lines(_ catalog: AppCatalog) -> [String] {
        func price(_ p: Price?) -> String { p.map { "\(DecimalMicros.format($0.amountMicros)) \($0.currencyCode)" } ?? "-" }
        return catalog.products.isEmpty ? ["no products"] : TextTable.lines(
            ["product", "type", "name", "web_price", "storekit_price", "period", "trial"],
            catalog.products.map { p in
                [p.id, p.type.rawValue, p.displayName, price(p.webPrice), price(catalog.storeKitPrices[p.id]),
                 p.subscriptionPeriod ?? "-", p.freeTrialDuration ?? "-"]
            })
    }
}
