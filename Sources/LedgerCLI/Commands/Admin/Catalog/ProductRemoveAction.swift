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

    func event(for history: AppHistory) throws -> any DomainEvent {
        _ = try history.requireProduct(productID)
        // A campaign offering a product that is gone would show users a dead offer.
        let naming = history.campaigns(naming: productID)
        guard naming.isEmpty else {
            throw AdminError(.inUse, "product \(productID) is named by \(naming.joined(separator: " and ")): end the campaign first")
        }
        return ProductRemoved(appID: app, productID: productID)
    }
}
