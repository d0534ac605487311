import API
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// The seed's schema, loaded once; nil when ../shared is absent, in which case the suites
/// that check responses against it are skipped (`.needsSharedData`), and fail in CI.
let seedValidator: OpenAPISchemaValidator? = {
    guard let path = try? SharedData.path("seeds/zerosettle-products-openapi.yaml"),
          let text = try? String(contentsOfFile: path, encoding: .utf8),
          let document = try? YAMLSubset.parse(text) else { return nil }
    return OpenAPISchemaValidator(document: document)
}()

/// The seed's schema, or a failure: for tests that check responses against it.
func requireSeedValidator() throws -> OpenAPISchemaValidator {
    guard let seedValidator else { throw SharedData.Missing(relative: "seeds/zerosettle-products-openapi.yaml") }
    return seedValidator
}

/// Apps, keys and catalog configuration appended directly (the `ledger admin` commands
/// have tests of their own), and the catalog endpoint read with every response checked
/// against the seed's schema.
extension BillingFixture {
    /// Creates the app and issues it a key; returns the key's text.
    @discardableResult
    func app(_ id: String, bundleID: String = "ai.screenrig.app", mode: KeyMode = .test) throws -> String {
        try append(AppCreated(appID: id, name: id, bundleID: bundleID), stream: "app-" + id)
        return try issueKey(id, mode: mode)
    }

    func issueKey(_ app: String, mode: KeyMode, keyID: String = "k_" + UUID().uuidString.prefix(8).lowercased()) throws -> String {
        let text = mode.prefix + Hex.encode(SecureRandom.bytes(16))
        try append(AppKeyIssued(appID: app, keyID: keyID, mode: mode, sha256: Hex.encode(SHA256.hash(Array(text.utf8))),
                                prefix: String(text.prefix(16))), stream: "app-" + app)
        return text
    }

    /// Appends an app's configuration event.
    @discardableResult
    func configure<E: DomainEvent>(_ app: String, _ event: E) throws -> AppendResult {
        try append(event, stream: "app-" + app)
    }

    /// Records a purchase in a user's history.
    func purchase(_ app: String, user: String, product: String, source: PurchaseSource = .storekit, id: String = UUID().uuidString,
                  original: String? = nil, at: Timestamp, expires: Timestamp?, trial: Bool = false) throws {
        try append(PurchaseRecorded(appID: app, userID: user, source: source, purchaseID: id, originalID: original ?? id,
                                    productID: product, purchasedAt: at, expiresAt: expires, trial: trial, environment: nil),
                   stream: "app-\(app)-purchases")
    }

    /// GET /v1/iap/products once the catalog in memory is current; the body is checked
    /// against the seed's schema for its status.
    func products(key: String?, user: String? = nil, demo: String? = nil, query extra: String = "") throws -> (status: Int, body: JSONValue) {
        #expect(try service.context.catalog.waitUntilCurrent(position: try service.store.log.headPosition()))
        var items: [String] = []
        if let user { items.append("user_id=" + (user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? user)) }
        if let demo { items.append("demo=" + demo) }
        if !extra.isEmpty { items.append(extra) }
        let path = "/v1/iap/products" + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        let response = try service.get(path, headers: key.map { [("X-ZeroSettle-Key", $0)] } ?? [])
        let body = try JSONValue.parse(response.body)
        let violations = try requireSeedValidator().validateResponse(body, path: "/iap/products", method: "get", status: response.status)
        #expect(violations.isEmpty, "\(path) answered \(response.status) outside the seed's schema: \(violations)")
        return (response.status, body)
    }

    func product(_ body: JSONValue, _ id: String) -> JSONValue? {
        body["products"]?.arrayValue?.first { $0["id"] == .string(id) }
    }
}

/// A catalog like the demo's: a monthly and a yearly subscription in one group, both
/// with trials, a lifetime unlock and a consumable.
enum SampleCatalog {
    static let group: Int64 = 21_000_001
    static let monthly = CatalogProduct(id: "pro.monthly", displayName: "Pro Monthly", description: "Everything, monthly",
                                        type: .autoRenewableSubscription, webPrice: Price(amountMicros: 7_990_000, currencyCode: "USD"),
                                        subscriptionGroupID: group, subscriptionPeriod: "P1M", freeTrialDuration: "P7D",
                                        trial: .init(mode: .free))
    static let yearly = CatalogProduct(id: "pro.yearly", displayName: "Pro Yearly", description: "Everything, yearly",
                                       type: .autoRenewableSubscription, webPrice: Price(amountMicros: 79_990_000, currencyCode: "USD"),
                                       subscriptionGroupID: group, subscriptionPeriod: "P1Y", freeTrialDuration: "P14D",
                                       trial: .init(mode: .paid, upfrontAmountCents: 99))
    static let lifetime = CatalogProduct(id: "pro.lifetime", displayName: "Pro Lifetime", description: "Once",
                                         type: .nonConsumable, webPrice: Price(amountMicros: 149_990_000, currencyCode: "USD"))
    static let coins = CatalogProduct(id: "coins.100", displayName: "100 coins", description: "Coins", type: .consumable)

    static func install(_ f: BillingFixture, app: String) throws {
        for product in [monthly, yearly, lifetime, coins] { try f.configure(app, ProductConfigured(appID: app, product: product)) }
        try f.configure(app, StoreKitPriceSynced(appID: app, productID: monthly.id, price: Price(amountMicros: 9_990_000, currencyCode: "USD")))
        try f.configure(app, CheckoutConfigured(appID: app, checkout: CheckoutConfig(
            sheetType: .native, isEnabled: true, jurisdictions: [.eu: .init(sheetType: .webview, isEnabled: false)],
            appleMerchantID: "merchant.ai.screenrig")))
    }

    static func migration(rollout: Int = 100, min: Int = 30, max: Int? = nil, variants: [CampaignVariant] = []) -> MigrationCampaignConfig {
        MigrationCampaignConfig(campaignID: "switch-save", productID: monthly.id, eligibleProductIDs: [monthly.id, yearly.id],
                                discountPercent: 20, title: "Save 20%", message: "Switch to web billing",
                                targeting: CampaignTargeting(minSubscriptionDays: min, maxSubscriptionDays: max, freeTrialDays: 7,
                                                             rolloutPercent: rollout, variants: variants))
    }

    static func upgrade(rollout: Int = 100) -> UpgradeOfferConfig {
        UpgradeOfferConfig(campaignID: "go-yearly", upgradePaths: [.init(fromProductID: monthly.id, toProductID: yearly.id, upgradeType: .storekitToWeb)],
                           targeting: CampaignTargeting(minSubscriptionDays: 0, rolloutPercent: rollout, checkoutPresentation: .sheet))
    }
}
