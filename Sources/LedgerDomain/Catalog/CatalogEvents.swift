import LedgerJSON

// The IAP catalog's events: apps and their publishable keys, products, prices, checkout
// and campaigns. All are operator acts (`ledger admin …`) except the StoreKit price sync.

/// Whether a publishable key serves test (sandbox) or live traffic.
public enum KeyMode: String, Codable, Sendable, Hashable, CaseIterable {
    case test, live
    /// The prefix of its keys: `zs_pk_test_` or `zs_pk_live_`.
    public var prefix: String { "zs_pk_\(rawValue)_" }
}

/// `app.created`, on `app-<id>`: an app whose SDKs read the catalog.
public struct AppCreated: DomainEvent {
    public static let type = "app.created"
    public var appID: String
    public var name: String
    /// The App Store bundle ID its StoreKit transactions must name.
    public var bundleID: String
    enum CodingKeys: String, CodingKey { case name, appID = "app_id", bundleID = "bundle_id" }
    public init(appID: String, name: String, bundleID: String) {
        self.appID = appID
        self.name = name
        self.bundleID = bundleID
    }
}

/// `app.key_issued`, on `app-<id>`: a publishable key; only its SHA-256 is kept.
public struct AppKeyIssued: DomainEvent {
    public static let type = "app.key_issued"
    public var appID: String
    public var keyID: String
    public var mode: KeyMode
    /// Lowercase hex SHA-256 of the key's text.
    public var sha256: String
    public var prefix: String
    enum CodingKeys: String, CodingKey { case mode, sha256, prefix, appID = "app_id", keyID = "key_id" }
    public init(appID: String, keyID: String, mode: KeyMode, sha256: String, prefix: String) {
        self.appID = appID
        self.keyID = keyID
        self.mode = mode
        self.sha256 = sha256
        self.prefix = prefix
    }
}

/// `app.key_revoked`, on `app-<id>`: the key answers 403 from now on.
public struct AppKeyRevoked: DomainEvent {
    public static let type = "app.key_revoked"
    public var appID: String
    public var keyID: String
    enum CodingKeys: String, CodingKey { case appID = "app_id", keyID = "key_id" }
    public init(appID: String, keyID: String) {
        self.appID = appID
        self.keyID = keyID
    }
}

/// `app.status_changed`, on `app-<id>`: a disabled app's keys answer 403.
public struct AppStatusChanged: DomainEvent {
    public static let type = "app.status_changed"
    public var appID: String
    public var enabled: Bool
    enum CodingKeys: String, CodingKey { case enabled, appID = "app_id" }
    public init(appID: String, enabled: Bool) {
        self.appID = appID
        self.enabled = enabled
    }
}

/// `iap.product_configured`, on `app-<id>`: a product, created or replaced whole.
public struct ProductConfigured: DomainEvent {
    public static let type = "iap.product_configured"
    public var appID: String
    public var product: CatalogProduct
    enum CodingKeys: String, CodingKey { case product, appID = "app_id" }
    public init(appID: String, product: CatalogProduct) {
        self.appID = appID
        self.product = product
    }
}

/// `iap.product_removed`, on `app-<id>`: no longer in the catalog (its history stays).
public struct ProductRemoved: DomainEvent {
    public static let type = "iap.product_removed"
    public var appID: String
    public var productID: String
    enum CodingKeys: String, CodingKey { case appID = "app_id", productID = "product_id" }
    public init(appID: String, productID: String) {
        self.appID = appID
        self.productID = productID
    }
}

/// `iap.storekit_price_synced`, on `app-<id>`: the price App Store Connect shows.
public struct StoreKitPriceSynced: DomainEvent {
    public static let type = "iap.storekit_price_synced"
    public var appID: String
    public var productID: String
    public var price: Price
    enum CodingKeys: String, CodingKey { case price, appID = "app_id", productID = "product_id" }
    public init(appID: String, productID: String, price: Price) {
        self.appID = appID
        self.productID = productID
        self.price = price
    }
}

/// `iap.checkout_configured`, on `app-<id>`: replaces the checkout configuration.
public struct CheckoutConfigured: DomainEvent {
    public static let type = "iap.checkout_configured"
    public var appID: String
    public var checkout: CheckoutConfig
    enum CodingKeys: String, CodingKey { case checkout, appID = "app_id" }
    public init(appID: String, checkout: CheckoutConfig) {
        self.appID = appID
        self.checkout = checkout
    }
}

/// `iap.migration_campaign_configured`, on `app-<id>`: the app's Switch & Save campaign
/// (one active at a time: a new one replaces it).
public struct MigrationCampaignConfigured: DomainEvent {
    public static let type = "iap.migration_campaign_configured"
    public var appID: String
    public var campaign: MigrationCampaignConfig
    enum CodingKeys: String, CodingKey { case campaign, appID = "app_id" }
    public init(appID: String, campaign: MigrationCampaignConfig) {
        self.appID = appID
        self.campaign = campaign
    }
}

/// `iap.upgrade_offer_configured`, on `app-<id>`: the app's Upgrade & Save campaign
/// (one active at a time).
public struct UpgradeOfferConfigured: DomainEvent {
    public static let type = "iap.upgrade_offer_configured"
    public var appID: String
    public var campaign: UpgradeOfferConfig
    enum CodingKeys: String, CodingKey { case campaign, appID = "app_id" }
    public init(appID: String, campaign: UpgradeOfferConfig) {
        self.appID = appID
        self.campaign = campaign
    }
}

/// `iap.campaign_ended`, on `app-<id>`: the campaign is no longer offered.
public struct CampaignEnded: DomainEvent {
    public static let type = "iap.campaign_ended"
    public var appID: String
    public var campaignID: String
    enum CodingKeys: String, CodingKey { case appID = "app_id", campaignID = "campaign_id" }
    public init(appID: String, campaignID: String) {
        self.appID = appID
        self.campaignID = campaignID
    }
}
