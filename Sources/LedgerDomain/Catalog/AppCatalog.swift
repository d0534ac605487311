/// One app's catalog as the projection holds it: what every request for the app shares.
public struct AppCatalog: Sendable, Hashable {
    public var appID: String
    public var bundleID: String
    public var enabled: Bool
    /// In the order they were first configured.
    public var products: [CatalogProduct]
    public var storeKitPrices: [String: Price]
    public var checkout: CheckoutConfig
    public var migration: MigrationCampaignConfig?
    public var upgrade: UpgradeOfferConfig?

    public init(appID: String, bundleID: String, enabled: Bool = true, products: [CatalogProduct] = [],
                storeKitPrices: [String: Price] = [:], checkout: CheckoutConfig = .unconfigured,
                migration: MigrationCampaignConfig? = nil, upgrade: UpgradeOfferConfig? = nil) {
        self.appID = appID
        self.bundleID = bundleID
        self.enabled = enabled
        self.products = products
        self.storeKitPrices = storeKitPrices
        self.checkout = checkout
        self.migration = migration
        self.upgrade = upgrade
    }

    public func product(_ id: String) -> CatalogProduct? { products.first { $0.id == id } }
}

/// A user's purchases with one app, as the catalog's rules need them.
public struct UserPurchase: Sendable, Hashable {
    public var source: PurchaseSource
    public var originalID: String
    public var productID: String
    public var purchasedAt: Timestamp
    public var expiresAt: Timestamp?
    public var revokedAt: Timestamp?
    public var trial: Bool

    public init(source: PurchaseSource, originalID: String, productID: String, purchasedAt: Timestamp,
                expiresAt: Timestamp?, revokedAt: Timestamp? = nil, trial: Bool = false) {
        self.source = source
        self.originalID = originalID
        self.productID = productID
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.trial = trial
    }
}
