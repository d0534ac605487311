import Crypto
import EventStore
import LedgerDomain
import LedgerJSON

extension DemoData {
    static let catalogApp = "screenrig-ios"

    /// A test app for `GET /v1/iap/products`: four products, checkout, a Switch & Save
    /// campaign, an Upgrade & Save path, and a user who holds a StoreKit subscription
    /// (instants fixed, so that a restart appends nothing).
    static func seedCatalog(store: EventStore, metadata: EventMetadata) throws -> JSONValue {
        let app = catalogApp, stream = "app-" + catalogApp
        func append<E: DomainEvent>(_ event: E, _ key: String, _ on: String? = nil) throws {
            try appendDemo(event, on ?? stream, key: "catalog-" + key, store: store, metadata: metadata)
        }
        try append(AppCreated(appID: app, name: "ScreenRig iOS", bundleID: "ai.screenrig.app"), "app")
        let key = KeyMode.test.prefix + Hex.encode(SHA256.hash(Array("ledger demo publishable key".utf8)).prefix(16))
        try append(AppKeyIssued(appID: app, keyID: "demo-test-key", mode: .test, sha256: Hex.encode(SHA256.hash(Array(key.utf8))),
                                prefix: String(key.prefix(16))), "key")
        let usd = { (micros: Int64) in Price(amountMicros: micros, currencyCode: "USD") }
        let products = [
            CatalogProduct(id: "ai.screenrig.pro.monthly", displayName: "ScreenRig Pro (monthly)", description: "Every feature, billed monthly",
                           type: .autoRenewableSubscription, webPrice: usd(7_990_000), subscriptionGroupID: 21_000_001,
                           subscriptionPeriod: "P1M", freeTrialDuration: "P7D", trial: .init(mode: .free)),
            CatalogProduct(id: "ai.screenrig.pro.yearly", displayName: "ScreenRig Pro (yearly)", description: "Every feature, billed yearly",
                           type: .autoRenewableSubscription, webPrice: usd(79_990_000), subscriptionGroupID: 21_000_001,
                           subscriptionPeriod: "P1Y", freeTrialDuration: "P14D", trial: .init(mode: .paid, upfrontAmountCents: 99)),
            CatalogProduct(id: "ai.screenrig.lifetime", displayName: "ScreenRig Lifetime", description: "Every feature, forever",
                           type: .nonConsumable, webPrice: usd(199_990_000)),
            CatalogProduct(id: "ai.screenrig.credits.100", displayName: "100 render credits", description: "For cloud renders",
                           type: .consumable, webPrice: usd(4_990_000)),
        ]
        for product in products { try append(ProductConfigured(appID: app, product: product), "product-" + product.id) }
        try append(StoreKitPriceSynced(appID: app, productID: products[0].id, price: usd(9_990_000)), "price-monthly")
        try append(StoreKitPriceSynced(appID: app, productID: products[1].id, price: usd(99_990_000)), "price-yearly")
        try append(CheckoutConfigured(appID: app, checkout: CheckoutConfig(
            sheetType: .native, isEnabled: true, jurisdictions: [.eu: .init(sheetType: .webview, isEnabled: true), .other: .init(sheetType: .webview, isEnabled: false)],
            appleMerchantID: "merchant.ai.screenrig")), "checkout")
        var display = OfferDisplay()
        display.offerTitle = "Thanks for being with us!"
        display.offerMessage = "Switch to web billing and save 20% forever."
        display.offerCTA = "Save 20% Forever"
        try append(MigrationCampaignConfigured(appID: app, campaign: MigrationCampaignConfig(
            campaignID: "switch-and-save", productID: products[0].id, eligibleProductIDs: [products[0].id, products[1].id],
            discountPercent: 20, title: "Save 20% forever", message: "Move your subscription to web billing.",
            targeting: CampaignTargeting(minSubscriptionDays: 30, freeTrialDays: 7, rolloutPercent: 100,
                                         variants: [CampaignVariant(id: 1, weight: 50), CampaignVariant(id: 2, weight: 50)],
                                         display: display, checkoutPresentation: .inline))), "migration")
        try append(UpgradeOfferConfigured(appID: app, campaign: UpgradeOfferConfig(
            campaignID: "go-yearly", upgradePaths: [.init(fromProductID: products[0].id, toProductID: products[1].id, upgradeType: .storekitToWeb)],
            targeting: CampaignTargeting(rolloutPercent: 100, checkoutPresentation: .sheet))), "upgrade")
        try append(PurchaseRecorded(appID: app, userID: "demo-subscriber", source: .storekit, purchaseID: "2000000000000777",
                                    originalID: "2000000000000777", productID: products[0].id,
                                    purchasedAt: Timestamp(iso8601: "2026-01-01T00:00:00Z")!, expiresAt: Timestamp(iso8601: "2099-01-01T00:00:00Z")!,
                                    trial: false, environment: "Sandbox"), "purchase", "\(stream)-purchases")
        return ["app_id": .string(app), "publishable_key": .string(key), "subscriber_user_id": "demo-subscriber"]
    }
}
