import API
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("IAP catalog: GET /v1/iap/products against the seed's schema", .needsSharedData, .bounded)
struct CatalogRuleTests {
    static let now = t("2026-11-15T12:00:00Z")

    func fixture() throws -> (BillingFixture, String) {
        let f = try BillingFixture()
        f.service.clock.set("2026-11-15T12:00:00Z")
        let key = try f.app("demo")
        try SampleCatalog.install(f, app: "demo")
        return (f, key)
    }

    @Test("the seed's schema is what the responses are checked against")
    func seedIsLoaded() throws {
        let validator = try requireSeedValidator()
        let (f, key) = try fixture()
        defer { f.shutdown() }
        var body = try f.products(key: key, user: "u").body
        #expect(validator.validateResponse(body, path: "/iap/products", method: "get", status: 200).isEmpty)
        // The check can fail: a product without its nullable price member, or with a number as a string.
        if case .object(var m) = body, case .array(var products)? = m["products"], case .object(var p) = products[0] {
            p["web_price"] = ["amount_micros": "7990000", "currency_code": "USD"]
            products[0] = .object(p)
            m["products"] = .array(products)
            body = .object(m)
        }
        #expect(!validator.validateResponse(body, path: "/iap/products", method: "get", status: 200).isEmpty)
    }

    @Test("keys: missing or unknown 401, revoked or disabled app 403, in the seed's Error shape")
    func keys() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        #expect(try f.products(key: key).status == 200)
        let missing = try f.products(key: nil)
        #expect(missing.status == 401 && missing.body["code"] == "missing_api_key" && missing.body["error"]?.stringValue != nil)
        #expect(try f.products(key: "zs_pk_test_" + String(repeating: "0", count: 32)).body["code"] == "invalid_api_key")
        #expect(try f.products(key: "sk_live_whatever").status == 401)
        // A live key's text under the test prefix is not that key.
        let live = try f.issueKey("demo", mode: .live, keyID: "k_live")
        #expect(try f.products(key: live).status == 200)
        #expect(try f.products(key: "zs_pk_test_" + live.dropFirst(KeyMode.live.prefix.count)).status == 401)
        try f.configure("demo", AppKeyRevoked(appID: "demo", keyID: "k_live"))
        let revoked = try f.products(key: live)
        #expect(revoked.status == 403 && revoked.body["code"] == "api_key_revoked")
        try f.configure("demo", AppStatusChanged(appID: "demo", enabled: false))
        let disabled = try f.products(key: key)
        #expect(disabled.status == 403 && disabled.body["code"] == "app_disabled")
        try f.configure("demo", AppStatusChanged(appID: "demo", enabled: true))
        #expect(try f.products(key: key).status == 200)
    }

    @Test("a key of one app never sees another app's catalog")
    func appsAreSeparate() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        let other = try f.app("other", bundleID: "com.example.other")
        try f.configure("other", ProductConfigured(appID: "other", product: CatalogProduct(
            id: "other.gems", displayName: "Gems", description: "Other app's", type: .consumable)))
        try f.purchase("other", user: "u1", product: "other.gems", at: Self.now, expires: nil)
        let mine = try f.products(key: key, user: "u1").body
        let theirs = try f.products(key: other, user: "u1").body
        #expect(mine["products"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["pro.monthly", "pro.yearly", "pro.lifetime", "coins.100"])
        #expect(theirs["products"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["other.gems"])
        #expect(theirs["checkout_config"]?["is_enabled"] == false, "the other app has no checkout configured")
        #expect(mine["checkout_config"]?["apple_merchant_id"] == "merchant.ai.screenrig")
    }

    @Test("the catalog: prices in micros, groups, trials, checkout with every jurisdiction resolved")
    func catalogFields() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        let body = try f.products(key: key).body
        let monthly = try #require(f.product(body, "pro.monthly"))
        #expect(monthly["web_price"] == ["amount_micros": 7_990_000, "currency_code": "USD"])
        #expect(monthly["storekit_price"] == ["amount_micros": 9_990_000, "currency_code": "USD"])
        #expect(monthly["subscription_group_id"] == .integer(SampleCatalog.group))
        #expect(monthly["free_trial_duration"] == "P7D")
        #expect(monthly["type"] == "auto_renewable_subscription")
        let coins = try #require(f.product(body, "coins.100"))
        #expect(coins["web_price"] == .null && coins["storekit_price"] == .null && coins["subscription_group_id"] == .null)
        let checkout = try #require(body["checkout_config"])
        #expect(checkout["sheet_type"] == "native" && checkout["is_enabled"] == true)
        #expect(checkout["jurisdictions"]?["eu"] == ["sheet_type": "webview", "is_enabled": false])
        #expect(checkout["jurisdictions"]?["us"] == ["sheet_type": "native", "is_enabled": true], "no override: the defaults")
        #expect(body["migration_campaign"] == .null && body["offer"] == .null)
    }

    @Test("is_trial_eligible is null without user_id; true until a trial or a subscription in the product's group; trial only where the seed says")
    func trialEligibility() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        let anonymous = try f.products(key: key).body
        for product in anonymous["products"]?.arrayValue ?? [] {
            #expect(product["is_trial_eligible"] == .null)
            #expect(product["trial"] == nil, "no trial without a user")
        }
        let fresh = try f.products(key: key, user: "new-user").body
        let monthly = try #require(f.product(fresh, "pro.monthly"))
        #expect(monthly["is_trial_eligible"] == true)
        #expect(monthly["trial"] == ["mode": "free", "duration": "1_week", "upfront_amount_cents": 0, "hold_amount_cents": 0,
                                     "validates_card": false])
        #expect(f.product(fresh, "pro.yearly")?["trial"] == ["mode": "paid", "duration": "2_weeks", "upfront_amount_cents": 99,
                                                              "hold_amount_cents": 0, "validates_card": true])
        #expect(f.product(fresh, "pro.lifetime")?["is_trial_eligible"] == false)
        #expect(f.product(fresh, "pro.lifetime")?["trial"] == nil, "not a subscription: no trial")
        // A subscription in the group, bought on the web, ends eligibility for every product of the group.
        try f.purchase("demo", user: "web-buyer", product: "pro.yearly", source: .web, at: t("2025-01-01T00:00:00Z"),
                       expires: t("2026-01-01T00:00:00Z"))
        // A trial once, even long expired.
        try f.purchase("demo", user: "trialist", product: "pro.monthly", at: t("2024-01-01T00:00:00Z"),
                       expires: t("2024-01-08T00:00:00Z"), trial: true)
        for user in ["web-buyer", "trialist"] {
            let body = try f.products(key: key, user: user).body
            #expect(f.product(body, "pro.monthly")?["is_trial_eligible"] == false, "\(user)")
            #expect(f.product(body, "pro.yearly")?["is_trial_eligible"] == false, "\(user)")
            #expect(f.product(body, "pro.monthly")?["trial"] == nil, "\(user): not eligible, no trial")
        }
        // Another group is untouched.
        try f.configure("demo", ProductConfigured(appID: "demo", product: CatalogProduct(
            id: "kids.monthly", displayName: "Kids", description: "Kids", type: .autoRenewableSubscription,
            subscriptionGroupID: 99, subscriptionPeriod: "P1M", freeTrialDuration: "P3D", trial: .init(mode: .authHold, holdAmountCents: 100))))
        let other = try f.products(key: key, user: "trialist").body
        #expect(f.product(other, "kids.monthly")?["trial"] == ["mode": "auth_hold", "duration": "3_days", "upfront_amount_cents": 0,
                                                                 "hold_amount_cents": 100, "validates_card": true])
    }

    @Test("migration: shown to a StoreKit subscriber of an eligible product between min and max days, inside the rollout")
    func migrationOffer() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        try f.configure("demo", MigrationCampaignConfigured(appID: "demo", campaign: SampleCatalog.migration(min: 30, max: 400)))
        func subscriber(_ user: String, days: Int, source: PurchaseSource = .storekit, expired: Bool = false) throws {
            let start = Timestamp(microseconds: Self.now.microseconds - Int64(days) * 86_400_000_000)!
            try f.purchase("demo", user: user, product: "pro.monthly", source: source, original: "orig-" + user, at: start,
                           expires: expired ? start : Timestamp(microseconds: Self.now.microseconds + 86_400_000_000)!)
        }
        try subscriber("loyal", days: 45)
        try subscriber("recent", days: 10)
        try subscriber("veteran", days: 500)
        try subscriber("web", days: 45, source: .web)
        try subscriber("lapsed", days: 45, expired: true)
        let loyal = try f.products(key: key, user: "loyal").body
        #expect(loyal["migration_campaign"]?["should_show"] == true)
        #expect(loyal["migration_campaign"]?["max_subscription_days"] == 400)
        #expect(loyal["offer"]?["flow_type"] == "migration")
        #expect(loyal["offer"]?["product_id"] == "pro.monthly")
        #expect(loyal["offer"]?["eligible_product_ids"] == ["pro.monthly", "pro.yearly"])
        #expect(loyal["offer"]?["savings_percent"] == 20)
        #expect(loyal["offer"]?["upgrade_type"] == nil, "upgrade fields only on upgrades")
        for user in ["recent", "veteran", "web", "lapsed", "stranger"] {
            let body = try f.products(key: key, user: user).body
            #expect(body["migration_campaign"]?["should_show"] == false, "\(user)")
            #expect(body["offer"] == .null, "\(user)")
        }
        // Anonymous: the campaign is configured, but shown to nobody.
        #expect(try f.products(key: key).body["migration_campaign"]?["should_show"] == false)
        // Rollout 0: nobody.
        try f.configure("demo", MigrationCampaignConfigured(appID: "demo", campaign: SampleCatalog.migration(rollout: 0)))
        #expect(try f.products(key: key, user: "loyal").body["offer"] == .null)
        try f.configure("demo", CampaignEnded(appID: "demo", campaignID: "switch-save"))
        #expect(try f.products(key: key, user: "loyal").body["migration_campaign"] == .null)
    }

    @Test("migration: subscription days are whole days in both directions (catalog.md): min 30 is reached 30 x 24 h after the first purchase, max 30 holds until 31 x 24 h")
    func migrationDayBounds() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        try f.configure("demo", MigrationCampaignConfigured(appID: "demo", campaign: SampleCatalog.migration(min: 30, max: 30)))
        let day: Int64 = 86_400_000_000
        let held: [(String, Int64, Bool)] = [("short", 30 * day - 1, false), ("exact", 30 * day, true),
                                             ("almost-31", 31 * day - 1, true), ("thirty-one", 31 * day, false)]
        for (user, micros, _) in held {
            let start = Timestamp(microseconds: Self.now.microseconds - micros)!
            try f.purchase("demo", user: user, product: "pro.monthly", original: "orig-" + user, at: start,
                           expires: Timestamp(microseconds: Self.now.microseconds + day)!)
        }
        for (user, _, shown) in held {
            #expect(try f.products(key: key, user: user).body["migration_campaign"]?["should_show"] == .bool(shown), "\(user)")
        }
    }

    @Test("upgrade: the path the user holds, with upgrade_type, from, to and annualized savings_percent")
    func upgradeOffer() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        try f.configure("demo", UpgradeOfferConfigured(appID: "demo", campaign: SampleCatalog.upgrade()))
        try f.purchase("demo", user: "monthly", product: "pro.monthly", at: t("2026-10-01T00:00:00Z"), expires: t("2026-12-01T00:00:00Z"))
        let body = try f.products(key: key, user: "monthly").body
        let offer = try #require(body["offer"])
        #expect(offer["flow_type"] == "upgrade" && offer["upgrade_type"] == "storekit_to_web")
        #expect(offer["from_product_id"] == "pro.monthly" && offer["to_product_id"] == "pro.yearly" && offer["product_id"] == "pro.yearly")
        // StoreKit 9.99 a month is 119.88 a year; the web yearly is 79.99: 33 % less.
        #expect(offer["savings_percent"] == 33)
        #expect(offer["checkout_presentation"] == "sheet")
        #expect(body["migration_campaign"] == .null)
        // Not computable (the StoreKit price in another currency): 0.
        try f.configure("demo", StoreKitPriceSynced(appID: "demo", productID: "pro.monthly", price: Price(amountMicros: 9_990_000, currencyCode: "EUR")))
        #expect(try f.products(key: key, user: "monthly").body["offer"]?["savings_percent"] == 0)
        // Somebody already on the target, or on nothing, gets no upgrade.
        try f.purchase("demo", user: "yearly", product: "pro.yearly", at: t("2026-10-01T00:00:00Z"), expires: t("2027-10-01T00:00:00Z"))
        #expect(try f.products(key: key, user: "yearly").body["offer"] == .null)
        #expect(try f.products(key: key, user: "nobody").body["offer"] == .null)
    }

    @Test("demo: migration and upgrade previews on test keys only; other values drop the bypass; no impression")
    func demo() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        try f.configure("demo", MigrationCampaignConfigured(appID: "demo", campaign: SampleCatalog.migration()))
        try f.configure("demo", UpgradeOfferConfigured(appID: "demo", campaign: SampleCatalog.upgrade()))
        let live = try f.issueKey("demo", mode: .live)
        let migration = try f.products(key: key, demo: "migration").body
        #expect(migration["migration_campaign"]?["should_show"] == true && migration["offer"]?["flow_type"] == "migration")
        let upgrade = try f.products(key: key, demo: "upgrade").body
        #expect(upgrade["offer"]?["flow_type"] == "upgrade" && upgrade["offer"]?["savings_percent"] == 0)
        #expect(upgrade["offer"]?["from_product_id"] == "pro.monthly" && upgrade["offer"]?["to_product_id"] == "pro.yearly")
        #expect(try f.products(key: live, demo: "migration").body["offer"] == .null, "live keys ignore it")
        #expect(try f.products(key: live, demo: "upgrade").body["offer"] == .null)
        for other in ["true", "MIGRATION", ""] {
            let r = try f.products(key: key, demo: other)
            #expect(r.status == 200 && r.body["offer"] == .null, "demo=\(other) drops the bypass")
        }
        f.service.context.catalog.flush()
        let counted = try f.service.context.connections.read { try $0.query("SELECT count(*) FROM events WHERE type = $1", [OfferImpressionsCounted.type])[0].int64(0) }
        #expect(counted == 0, "demo previews count no impression")
        // A subscriber who would really get the migration offer sees the upgrade preview when asking for it.
        try f.purchase("demo", user: "subscriber", product: "pro.monthly", at: t("2026-01-01T00:00:00Z"), expires: t("2027-01-01T00:00:00Z"))
        #expect(try f.products(key: key, user: "subscriber", demo: "upgrade").body["offer"]?["flow_type"] == "upgrade")
        #expect(try f.products(key: key, user: "subscriber").body["offer"]?["flow_type"] == "migration")
    }

    @Test("impressions: every served offer is counted, batched into one event per flush, per campaign and variant")
    func impressions() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        let variants = [CampaignVariant(id: 1, weight: 50), CampaignVariant(id: 2, weight: 50)]
        try f.configure("demo", MigrationCampaignConfigured(appID: "demo", campaign: SampleCatalog.migration(min: 0, variants: variants)))
        var expected: [Int64: Int64] = [:]
        for i in 0..<20 {
            let user = "user-\(i)"
            try f.purchase("demo", user: user, product: "pro.monthly", at: t("2026-11-01T00:00:00Z"), expires: t("2026-12-01T00:00:00Z"))
            let body = try f.products(key: key, user: user).body
            let variant = try #require(body["offer"]?["variant_id"]?.int64Value)
            #expect(body["migration_campaign"]?["variant_id"] == .integer(variant))
            #expect(try f.products(key: key, user: user).body["offer"]?["variant_id"] == .integer(variant), "the same user, the same variant")
            expected[variant, default: 0] += 2
        }
        _ = try f.products(key: key, user: "no-subscription")   // no offer: nothing counted
        f.service.context.catalog.flush()
        try f.settle()
        #expect(try f.service.context.catalog.waitUntilCurrent(position: try f.service.store.log.headPosition()))
        let rows = try f.service.context.connections.read {
            try $0.query("SELECT variant_id, count FROM proj_iap.impressions WHERE app_id = 'demo' AND campaign_id = 'switch-save'").rows
        }
        var counted: [Int64: Int64] = [:]
        for row in rows { counted[row.int64(0) ?? -1] = row.int64(1) }
        #expect(counted == expected)
        let events = try f.service.context.connections.read { try $0.query("SELECT count(*) FROM events WHERE type = $1", [OfferImpressionsCounted.type])[0].int64(0) ?? 0 }
        #expect(events >= 1 && events < 40, "batched, not one event per request")
        let metrics = String(decoding: try f.service.operationsGet("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("ledger_offer_impressions_total 40"), "\(metrics.split(separator: "\n").filter { $0.contains("impressions") })")
        #expect(metrics.contains("ledger_catalog_reloads_total{cause=\"notified\"}"))
    }
}

extension CatalogRuleTests {
    func sync(_ f: BillingFixture, key: String?, body: JSONValue) throws -> (status: Int, body: JSONValue) {
        let response = try f.service.client().send(method: "POST", path: "/v1/iap/transactions",
                                                   headers: (key.map { [("X-ZeroSettle-Key", $0)] } ?? []) + [("Content-Type", "application/json")],
                                                   body: body.compactBytes(sortedKeys: true))
        let parsed = try JSONValue.parse(response.body)
        if response.status != 200 {
            #expect(try requireSeedValidator().validate(parsed, component: "Error").isEmpty, "errors have the seed's Error shape: \(parsed)")
        }
        return (response.status, parsed)
    }

    @Test("transaction sync: a verified StoreKit 2 transaction joins the user's history; a trial there ends trial eligibility in the group")
    func transactionSync() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        let signer = TestAppStoreSigner()
        let jws = signer.transaction(productID: "pro.monthly", environment: "Sandbox", signedDate: t("2026-11-10T00:00:00Z"),
                                     extra: ["offerType": 1, "offerDiscountType": "FREE_TRIAL"])
        #expect(f.product(try f.products(key: key, user: "ios-user").body, "pro.monthly")?["is_trial_eligible"] == true)
        let first = try sync(f, key: key, body: ["user_id": "ios-user", "jws_representation": .string(jws)])
        #expect(first.status == 200 && first.body["recorded"] == true && first.body["product_id"] == "pro.monthly", "\(first.body)")
        let again = try sync(f, key: key, body: ["user_id": "ios-user", "jws_representation": .string(jws)])
        #expect(again.status == 200 && again.body["recorded"] == false && again.body["position"] == first.body["position"])
        try f.settle()
        let after = try f.products(key: key, user: "ios-user").body
        #expect(f.product(after, "pro.monthly")?["is_trial_eligible"] == false)
        #expect(f.product(after, "pro.yearly")?["is_trial_eligible"] == false, "one trial per subscription group")
        // The same transaction for somebody else is refused; nothing is half-applied.
        let head = try f.service.store.log.headPosition()
        #expect(try sync(f, key: key, body: ["user_id": "thief", "jws_representation": .string(jws)]).status == 409)
        // Another app's transaction, a tampered one, a malformed body, no key.
        let otherApp = TestAppStoreSigner(bundleID: "com.example.other").transaction(productID: "pro.monthly", environment: "Sandbox")
        #expect(try sync(f, key: key, body: ["user_id": "u", "jws_representation": .string(otherApp)]).body["code"] == "invalid_transaction")
        #expect(try sync(f, key: key, body: ["user_id": "u", "jws_representation": .string(jws + "x")]).status == 422)
        #expect(try sync(f, key: key, body: ["user_id": "", "jws_representation": .string(jws)]).status == 400)
        #expect(try sync(f, key: key, body: ["jws_representation": .string(jws)]).status == 400)
        #expect(try sync(f, key: nil, body: ["user_id": "u", "jws_representation": .string(jws)]).status == 401)
        #expect(try f.service.store.log.headPosition() == head, "no refused sync appended anything")
    }
}
