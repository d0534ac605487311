import LedgerDomain

/// `ledger admin product remove`: `iap.product_removed` on `app-<id>`: the product leaves
/// the catalog; its purchases and history stay.
struct ProductRemoveAction: AppEventAction {
    static let words = ["product", "remove"]
    static let synopsis = "--app ID --id PRODUCT"
    static let summary = "Remove a product from an app's catalog (refused while an active campaign names it)."
    static let valued: Set<String> = ["app", "id"]

    let app: String
    let productID: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        productID = try options.catalogID("id", "product")
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.removeProduct(productID, app: state) }
}
