import Crypto
import EventStore
import LedgerDomain
import LedgerJSON

extension DemoData {
    static let catalogApp = "screenrig-ios"
    /// The bundle ID of the demo's catalog app.
    static let catalogBundleID = "ai.screenrig.app"
    public static let monthly = "ai.screenrig.pro.monthly"
    public static let yearly = "ai.screenrig.pro.yearly"

    /// An app with the test key `key` (its secret, and its id: `<app>-test-key` unless
    /// given) and the demo's catalog: four products, StoreKit prices, checkout, a Switch &
    /// Save campaign with two variants and an Upgrade & Save path. Each event comes with a
    /// name unique within the app, for idempotency keys: `key` for the key `<app>-test-key`,
    /// `key-<id>` for another. Shared by `ledger dev` and `ledger bench`.
    public static func catalogApp(_ app: String, name: String, key: String, keyID: String? = nil) -> [(name: String, event: any DomainEvent)] {
        let keyID = keyID ?? app + "-test-key"
        let usd = { (micros: Int64) in Price(amountMicros: micros, currencyCode: "USD") }
        let products = [
            CatalogProduct(id: monthly, displayName: "ScreenRig Pro (monthly)", description: "Every feature, billed monthly",
                           type: .autoRenewableSubscription, webPrice: usd(7_990_000), subscriptionGroupID: 21_000_001,
                           subscriptionPeriod: "P1M", freeTrialDuration: "P7D", trial: .init(mode: .free)),
            CatalogProduct(id: yearly, displayName: "ScreenRig Pro (yearly)", description: "Every feature, billed yearly",
                           type: .autoRenewableSubscription, webPrice: usd(79_990_000), subscriptionGroupID: 21_000_001,
                           subscriptionPeriod: "P1Y", freeTrialDuration: "P14D", trial: .init(mode: .paid, upfrontAmountCents: 99)),
            CatalogProduct(id: "ai.screenrig.lifetime", displayName: "ScreenRig Lifetime", description: "Every feature, forever",
                           type: .nonConsumable, webPrice: usd(199_990_000)),
            CatalogProduct(id: "ai.screenrig.credits.100", displayName: "100 render credits", description: "For cloud renders",
                           type: .consumable, webPrice: usd(4_990_000)),
        ]
        var display = OfferDisplay()
        display.offerTitle = "Thanks for being with us!"
        display.offerMessage = "Switch to web billing and save 20% forever."
        display.offerCTA = "Save 20% Forever"
        var upgradeDisplay = OfferDisplay()
        upgradeDisplay.offerTitle = "Go yearly"
        upgradeDisplay.offerMessage = "Switch to yearly billing on the web: two months free."
        upgradeDisplay.offerCTA = "Switch to yearly"
        var events: [(name: String, event: any DomainEvent)] = [
            ("app", AppCreated(appID: app, name: name, bundleID: catalogBundleID)),
            (keyID == app + "-test-key" ? "key" : "key-" + keyID,
             AppKeyIssued(appID: app, keyID: keyID, mode: .test, sha256: Hex.encode(SHA256.hash(Array(key.utf8))),
                          prefix: String(key.prefix(KeyMode.test.prefix.count + AppKeyIssueAction.prefixRandomCharacters)))),
        ]
        events += products.map { ("product-" + $0.id, ProductConfigured(appID: app, product: $0)) }
        events += [
            ("price-monthly", StoreKitPriceSynced(appID: app, productID: monthly, price: usd(9_990_000))),
            ("price-yearly", StoreKitPriceSynced(appID: app, productID: yearly, price: usd(99_990_000))),
            ("checkout", CheckoutConfigured(appID: app, checkout: CheckoutConfig(
                sheetType: .native, isEnabled: true,
                jurisdictions: [.eu: .init(sheetType: .webview, isEnabled: true), .other: .init(sheetType: .webview, isEnabled: false)],
                appleMerchantID: "merchant.ai.screenrig"))),
            ("migration", MigrationCampaignConfigured(appID: app, campaign: MigrationCampaignConfig(
                campaignID: "switch-and-save", productID: monthly, eligibleProductIDs: [monthly, yearly],
                discountPercent: 20, title: "Save 20% forever", message: "Move your subscription to web billing.",
                targeting: CampaignTargeting(minSubscriptionDays: 30, freeTrialDays: 7, rolloutPercent: 100,
                                             variants: [CampaignVariant(id: 1, weight: 50), CampaignVariant(id: 2, weight: 50)],
                                             display: display, checkoutPresentation: .inline)))),
            ("upgrade", UpgradeOfferConfigured(appID: app, campaign: UpgradeOfferConfig(
                campaignID: "go-yearly", upgradePaths: [.init(fromProductID: monthly, toProductID: yearly, upgradeType: .storekitToWeb)],
                targeting: CampaignTargeting(rolloutPercent: 100, checkoutPresentation: .sheet)))),
            // The same campaign with the texts an SDK shows (without them a preview is blank).
            // A second event rather than a changed first one: a cluster seeded before
            // keeps its first under the same key, and gets this one added.
            ("upgrade-texts", UpgradeOfferConfigured(appID: app, campaign: UpgradeOfferConfig(
                campaignID: "go-yearly", upgradePaths: [.init(fromProductID: monthly, toProductID: yearly, upgradeType: .storekitToWeb)],
                targeting: CampaignTargeting(rolloutPercent: 100, display: upgradeDisplay, checkoutPresentation: .sheet)))),
        ]
        return events
    }

    /// For `ledger bench` alone, whose throwaway databases are reused from run to run: the
    /// app of `catalogApp(_:name:key:keyID:)` with a test key derived from `keySeed`, so
    /// that a rerun appends the same events. Never for `ledger dev`, whose key anyone could
    /// then compute: its keys are random (`DemoKeys`).
    public static func catalogApp(_ app: String, name: String, keySeed: String) -> (key: String, events: [(name: String, event: any DomainEvent)]) {
        let key = KeyMode.test.prefix + Hex.encode(SHA256.hash(Array(keySeed.utf8)).prefix(16))
        return (key, catalogApp(app, name: name, key: key))
    }

    /// A StoreKit subscription to the monthly product held since 2026-01-01 until 2099:
    /// fixed instants, so that a rerun appends nothing and the user is always eligible.
    public static func subscriber(_ user: String, app: String, purchaseID: String, product: String = monthly) -> PurchaseRecorded {
        PurchaseRecorded(appID: app, userID: user, source: .storekit, purchaseID: purchaseID, originalID: purchaseID, productID: product,
                         purchasedAt: Timestamp(iso8601: "2026-01-01T00:00:00Z")!, expiresAt: Timestamp(iso8601: "2099-01-01T00:00:00Z")!,
                         trial: false, environment: "Sandbox")
    }

    /// `event` as an append on `stream`.
    public static func toAppend(_ event: any DomainEvent, stream: String, metadata: EventMetadata, idempotencyKey: String? = nil) throws -> EventToAppend {
        EventToAppend(stream: stream, type: type(of: event).type, data: try JSONValueEncoder().encode(event), metadata: metadata,
                      idempotencyKey: idempotencyKey)
    }

    /// The test app of `GET /v1/iap/products`, with the data directory's publishable key
    /// (earlier demo keys of the app revoked), and a user who holds a StoreKit subscription.
    static func seedCatalog(store: EventStore, metadata: EventMetadata, key demoKey: DemoKeys.Key) throws -> JSONValue {
        let events = catalogApp(catalogApp, name: "ScreenRig iOS", key: demoKey.secret, keyID: demoKey.keyID)
        let stream = "app-" + catalogApp
        for (name, event) in events + [("purchase", subscriber("demo-subscriber", app: catalogApp, purchaseID: "2000000000000777"))] {
            let on = event is PurchaseRecorded ? stream + "-purchases" : stream
            _ = try store.append(AppendRequest(try toAppend(event, stream: on, metadata: metadata), idempotencyKey: "demo:catalog-" + name))
        }
        try DemoKeys.revokeCatalogKeys(before: demoKey, store: store, metadata: metadata)
        return ["app_id": .string(catalogApp), "publishable_key": .string(demoKey.secret), "subscriber_user_id": "demo-subscriber"]
    }
}
