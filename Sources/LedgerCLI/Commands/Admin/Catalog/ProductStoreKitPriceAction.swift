import LedgerDomain

/// `ledger admin product storekit-price`: `iap.storekit_price_synced` on `app-<id>`: the
/// price App Store Connect shows for a product, which savings are computed against.
struct ProductStoreKitPriceAction: AppEventAction {
    static let words = ["product", "storekit-price"]
    static let synopsis = "--app ID --id PRODUCT --price DECIMAL --currency CODE"
    static let summary = "Record the App Store price of a product in an app's catalog (a decimal such as 9.99)."
    static let valued: Set<String> = ["app", "id", "price", "currency"]

    let app: String
    let productID: String
    let price: Price

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        productID = try options.catalogID("id", "product")
        guard let price = try options.price("price", required: true), price.isValid else {
            throw UsageError("--currency must be an ISO 4217 code of three upper-case letters, such as USD")
        }
        self.price = price
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.setStoreKitPrice(price, productID: productID, app: state) }
}
