import Crypto
import EventStore
import Foundation
@testable import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Postgres
import Testing
import TestSupport

/// `ledger admin app|product|checkout|campaign|purchase`: the IAP catalog's operator acts.
/// They judge requests against the app's own stream, so no projector runs here.
@Suite("ledger admin: IAP catalog", .bounded)
struct CatalogAdminTests {
    /// Every event these tests append names the fixture's operator and a reason.
    static func expectOperatorAct(_ events: [RecordedEvent], reason: String = "checked by the tests",
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!events.isEmpty, sourceLocation: sourceLocation)
        #expect(events.allSatisfy { $0.actor == "operator:alice" && $0.reason == reason }, sourceLocation: sourceLocation)
    }

    @Test("app create, disable and enable append to app-<id>; a second create or a repeated status change is refused")
    func appLifecycle() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        let json = try f.adminJSON(["app", "create", "--id", "demo", "--name", "Demo", "--bundle-id", "com.example.demo"],
                                   reason: "onboarding ticket 12")
        #expect(json["operator"] == "alice" && json["reason"] == "onboarding ticket 12")
        #expect(json.appended.map { $0["type"] } == ["app.created"])
        #expect(json.appended.map { $0["stream"] } == ["app-demo"])
        #expect(json.appended.first?["data"] == ["app_id": "demo", "name": "Demo", "bundle_id": "com.example.demo"])
        Self.expectOperatorAct(try f.events(), reason: "onboarding ticket 12")

        try f.refuses(["app", "create", "--id", "demo", "--name", "Again", "--bundle-id", "com.example.demo"],
                      status: 1, saying: "app demo already exists")
        try f.refuses(["app", "create", "--id", "demo2", "--name", "Bad", "--bundle-id", "com example"], status: 2, saying: "--bundle-id")
        try f.refuses(["app", "create", "--id", "Demo", "--name", "Bad", "--bundle-id", "com.example"], status: 2, saying: "--id")
        try f.refuses(["app", "enable", "--app", "demo"], status: 1, saying: "app demo is already enabled")
        try f.refuses(["app", "disable", "--app", "ghost"], status: 1, saying: "app ghost does not exist")

        let start = try f.head()
        #expect(try f.adminJSON(["app", "disable", "--app", "demo"]).appended.first?["data"] == ["app_id": "demo", "enabled": false])
        try f.refuses(["app", "disable", "--app", "demo"], status: 1, saying: "app demo is already disabled")
        #expect(try f.adminJSON(["app", "enable", "--app", "demo"]).appended.first?["data"] == ["app_id": "demo", "enabled": true])
        let events = try f.events(after: start)
        #expect(events.map(\.type) == ["app.status_changed", "app.status_changed"])
        #expect(events.map(\.streamVersion) == [2, 3])
        Self.expectOperatorAct(events)
    }

    @Test("app stripe set records the Stripe account and mode, never a secret; the same again is refused, a change is recorded")
    func stripeSet() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        _ = try f.adminJSON(["app", "create", "--id", "demo", "--name", "Demo", "--bundle-id", "com.example.demo"])
        try f.refuses(["app", "stripe", "set", "--app", "demo", "--account", "whsec_abc", "--mode", "test"], status: 1, saying: "acct_")
        try f.refuses(["app", "stripe", "set", "--app", "demo", "--account", "acct_1", "--mode", "staging"], status: 2, saying: "--mode")
        try f.refuses(["app", "stripe", "set", "--app", "ghost", "--account", "acct_1", "--mode", "test"], status: 1, saying: "app ghost does not exist")
        let start = try f.head()
        #expect(try f.adminJSON(["app", "stripe", "set", "--app", "demo", "--account", "acct_1Abc", "--mode", "test"]).appended.first?["data"]
                == ["app_id": "demo", "account_id": "acct_1Abc", "mode": "test"])
        try f.refuses(["app", "stripe", "set", "--app", "demo", "--account", "acct_1Abc", "--mode", "test"], status: 1, saying: "already runs on")
        #expect(try f.adminJSON(["app", "stripe", "set", "--app", "demo", "--account", "acct_1Abc", "--mode", "live"]).appended.count == 1)
        let events = try f.events(after: start)
        #expect(events.map(\.type) == ["app.stripe_configured", "app.stripe_configured"])
        Self.expectOperatorAct(events)
    }

    @Test("app key issue prints the key once: zs_pk_<mode>_ and 32 hex digits; the log keeps its SHA-256 and prefix only")
    func keyIssue() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        for mode in ["test", "live"] {
            let start = try f.head()
            let json = try f.adminJSON(["app", "key", "issue", "--app", "demo", "--mode", mode])
            let key = try #require(json["key"]?.stringValue)
            let keyID = try #require(json["key_id"]?.stringValue)
            #expect(key.hasPrefix("zs_pk_\(mode)_"))
            #expect(key.dropFirst("zs_pk_\(mode)_".count).wholeMatch(of: /[0-9a-f]{32}/) != nil)
            #expect(keyID.wholeMatch(of: /appkey_[0-9a-f]{16}/) != nil)
            #expect(json["warning"]?.stringValue?.contains("cannot be shown again") == true)
            let events = try f.events(after: start)
            #expect(events.map(\.type) == ["app.key_issued"] && events.map(\.stream) == ["app-demo"])
            #expect(events.first?.json == ["app_id": "demo", "key_id": .string(keyID), "mode": .string(mode),
                                           "sha256": .string(Hex.encode(SHA256.hash(Array(key.utf8)))),
                                           "prefix": .string(String(key.prefix("zs_pk_\(mode)_".count + 4)))])
            #expect(events.allSatisfy { !$0.dataText.contains(key) && !$0.metadataText.contains(key) })
            Self.expectOperatorAct(events)
        }

        let text = f.admin(["app", "key", "issue", "--app", "demo", "--mode", "live"])
        #expect(text.status == 0)
        let line = try #require(text.output.split(separator: "\n").first { $0.hasPrefix("  zs_pk_live_") })
        #expect(try f.events().last?.json["sha256"]?.stringValue == Hex.encode(SHA256.hash(Array(line.dropFirst(2).utf8))))
        #expect(text.output.contains("warning: this is the only time the key is shown"))

        try f.refuses(["app", "key", "issue", "--app", "ghost", "--mode", "test"], status: 1, saying: "app ghost does not exist")
        try f.refuses(["app", "key", "issue", "--app", "demo", "--mode", "sandbox"], status: 2, saying: "--mode must be one of test, live")
        try f.refuses(["app", "key", "issue", "--app", "demo"], status: 2, saying: "--mode is required")
    }

    @Test("app key revoke appends app.key_revoked once; a second revoke, an unknown key or another app's key is refused")
    func keyRevoke() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        try f.app("other")
        let keyID = try #require(try f.adminJSON(["app", "key", "issue", "--app", "demo", "--mode", "test"])["key_id"]?.stringValue)
        let json = try f.adminJSON(["app", "key", "revoke", "--app", "demo", "--key-id", keyID], reason: "leaked in a screenshot")
        #expect(json.appended.map { $0["type"] } == ["app.key_revoked"])
        #expect(json.appended.first?["data"] == ["app_id": "demo", "key_id": .string(keyID)])
        Self.expectOperatorAct(Array(try f.events().suffix(1)), reason: "leaked in a screenshot")

        try f.refuses(["app", "key", "revoke", "--app", "demo", "--key-id", keyID], status: 1, saying: "already revoked")
        try f.refuses(["app", "key", "revoke", "--app", "other", "--key-id", keyID], status: 1,
                      saying: "key \(keyID) was never issued for app other")
        try f.refuses(["app", "key", "revoke", "--app", "demo", "--key-id", "appkey_ghost"], status: 1, saying: "never issued")
    }

    @Test("product set appends the product whole; the web price is exact micros")
    func productSet() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        let json = try f.adminJSON(["product", "set", "--app", "demo", "--id", "com.example.pro_monthly", "--type", "auto_renewable_subscription",
                                    "--name", "Pro", "--description", "Everything, monthly", "--web-price", "4.99", "--currency", "USD",
                                    "--group", "21345678", "--period", "P1M", "--trial", "P7D", "--trial-mode", "auth_hold",
                                    "--hold-cents", "100"])
        #expect(json.appended.map { $0["type"] } == ["iap.product_configured"])
        #expect(json.appended.first?["data"] == [
            "app_id": "demo",
            "product": ["id": "com.example.pro_monthly", "type": "auto_renewable_subscription", "display_name": "Pro",
                        "product_description": "Everything, monthly", "web_price": ["amount_micros": 4_990_000, "currency_code": "USD"],
                        "subscription_group_id": 21_345_678, "subscription_period": "P1M", "free_trial_duration": "P7D",
                        "trial": ["mode": "auth_hold", "upfront_amount_cents": 0, "hold_amount_cents": 100]],
        ])
        Self.expectOperatorAct(Array(try f.events().suffix(1)))

        // Replaced whole: what is left out is gone.
        let plain = try f.adminJSON(["product", "set", "--app", "demo", "--id", "coins_100", "--type", "consumable",
                                     "--name", "100 coins", "--description", "A bag"])
        #expect(plain.appended.first?["data"]?["product"]?["web_price"] == nil)
        #expect(plain.appended.first?["data"]?["product"]?["trial"] == nil)

        try f.refuses(["product", "set", "--app", "ghost", "--id", "p", "--type", "consumable", "--name", "n", "--description", "d"],
                      status: 1, saying: "app ghost does not exist")
        try f.refuses(["product", "set", "--app", "demo", "--id", "p", "--type", "gadget", "--name", "n", "--description", "d"],
                      status: 2, saying: "--type must be one of consumable, non_consumable")
        try f.refuses(["product", "set", "--app", "demo", "--id", "p", "--type", "consumable", "--name", "n", "--description", "d",
                       "--web-price", "1"], status: 2, saying: "--currency is required with --web-price")
    }

    @Test("product set lists every problem CatalogProduct finds, and appends nothing")
    func productProblems() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        let outcome = try f.refuses(["product", "set", "--app", "demo", "--id", "pro", "--type", "auto_renewable_subscription",
                                     "--name", "Pro", "--description", "d", "--web-price", "1", "--currency", "usd",
                                     "--period", "1 month", "--trial-mode", "paid"], status: 2, saying: "product pro is not valid")
        for problem in ["the web price needs a non-negative amount and an ISO 4217 currency",
                        "an auto-renewable subscription needs a subscription group",
                        "the subscription period 1 month is not an ISO 8601 duration",
                        "a trial mode needs a free trial duration", "a paid trial needs an upfront amount"] {
            #expect(outcome.errors.contains(problem), "missing: \(problem)")
        }
        try f.refuses(["product", "set", "--app", "demo", "--id", "coins", "--type", "consumable", "--name", "n", "--description", "d",
                       "--group", "3", "--trial", "P7D"], status: 2,
                      saying: "only subscriptions belong to a subscription group; only auto-renewable subscriptions have a free trial")
        try f.refuses(["product", "set", "--app", "demo", "--id", "coins", "--type", "consumable", "--name", "n", "--description", "d",
                       "--hold-cents", "5"], status: 2, saying: "need --trial-mode")
    }

    @Test("refused prices are usage errors naming the option, and append nothing",
          arguments: ["1.2345678", "-1", "1e3", "abc", "", ".5", "5.", "+1", "01.5", "1,5", " 1", "1.2.3", "9223372036855"])
    func refusedPrices(price: String) throws {
        let outcome = AdminCommand.execute(["product", "set", "--app", "demo", "--id", "p", "--type", "consumable", "--name", "n",
                                            "--description", "d", "--web-price", price, "--currency", "USD", "--reason", "r"],
                                           environment: AdminFixture.operatorEnvironment) {
            throw UsageError("the database must not be needed")
        }
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("--web-price \(price.debugDescription) is not a price"))
        #expect(DecimalMicros.parse(price) == nil)
    }

    @Test("decimal prices are exact micros: formatting micros and parsing the text gives them back (generated)")
    func micros() throws {
        try Property.check("webPriceMicros", count: 2_000) { rng, seed in
            // Every magnitude, from sub-cent amounts to the largest that fit.
            let digits = rng.int(1...18)
            let micros = Int64(rng.int(0...Int(pow(10, Double(digits))) - 1))
            let text = DecimalMicros.format(micros)
            #expect(DecimalMicros.parse(text) == micros, "seed \(seed.hex): \(micros) formats as \(text)")
            // Trailing zeros up to six fraction digits say the same amount.
            let whole = micros / 1_000_000, fraction = micros % 1_000_000
            let padded = "\(whole)." + String(repeating: "0", count: 6 - String(fraction).count) + String(fraction)
            #expect(DecimalMicros.parse(padded) == micros, "seed \(seed.hex): \(padded)")
        }
        #expect(DecimalMicros.parse("4.99") == 4_990_000)
        #expect(DecimalMicros.parse("0.000001") == 1)
        #expect(DecimalMicros.parse("9223372036854.775807") == .max)
        #expect(DecimalMicros.parse("9223372036854.775808") == nil)
        #expect(DecimalMicros.format(4_990_000) == "4.99" && DecimalMicros.format(10_000_000) == "10")
    }

    @Test("the web price in the event is the micros of the text given (generated, through the command)")
    func microsThroughTheCommand() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        try Property.check("webPriceThroughCommand", count: 30) { rng, seed in
            let micros = Int64(rng.int(0...1_000_000_000_000))
            let json = try f.adminJSON(["product", "set", "--app", "demo", "--id", "p", "--type", "non_consumable", "--name", "n",
                                        "--description", "d", "--web-price", DecimalMicros.format(micros), "--currency", "EUR"])
            #expect(json.appended.first?["data"]?["product"]?["web_price"] == ["amount_micros": .integer(micros), "currency_code": "EUR"],
                    "seed \(seed.hex)")
        }
        for price in ["1.2345678", "-1", "1e3", "abc"] {
            try f.refuses(["product", "set", "--app", "demo", "--id", "p", "--type", "consumable", "--name", "n", "--description", "d",
                           "--web-price", price, "--currency", "USD"], status: 2, saying: "is not a price")
        }
    }

    @Test("product storekit-price and remove need the product in the catalog; remove is refused while a campaign names it")
    func storeKitPriceAndRemove() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        try f.subscription("pro", app: "demo")
        let json = try f.adminJSON(["product", "storekit-price", "--app", "demo", "--id", "pro", "--price", "9.99", "--currency", "USD"])
        #expect(json.appended.map { $0["type"] } == ["iap.storekit_price_synced"])
        #expect(json.appended.first?["data"] == ["app_id": "demo", "product_id": "pro",
                                                 "price": ["amount_micros": 9_990_000, "currency_code": "USD"]])
        try f.refuses(["product", "storekit-price", "--app", "demo", "--id", "ghost", "--price", "1", "--currency", "USD"],
                      status: 1, saying: "product ghost is not in the catalog of app demo")
        try f.refuses(["product", "storekit-price", "--app", "demo", "--id", "pro", "--price", "1", "--currency", "usd"],
                      status: 2, saying: "--currency must be an ISO 4217 code")
        try f.refuses(["product", "storekit-price", "--app", "demo", "--id", "pro", "--price", "1.0000001", "--currency", "USD"],
                      status: 2, saying: "--price \"1.0000001\" is not a price")

        try f.subscription("pro_web", app: "demo")
        try f.migration("m1", app: "demo", product: "pro_web", eligible: "pro")
        try f.refuses(["product", "remove", "--app", "demo", "--id", "pro"], status: 1, saying: "named by migration campaign m1")
        try f.refuses(["product", "set", "--app", "demo", "--id", "pro_web", "--type", "non_consumable", "--name", "n", "--description", "d"],
                      status: 1, saying: "pro_web is sold on the web by migration campaign m1")
        _ = try f.adminJSON(["campaign", "end", "--app", "demo", "--id", "m1"])
        let removed = try f.adminJSON(["product", "remove", "--app", "demo", "--id", "pro"])
        #expect(removed.appended.map { $0["type"] } == ["iap.product_removed"])
        #expect(removed.appended.first?["data"] == ["app_id": "demo", "product_id": "pro"])
        Self.expectOperatorAct(Array(try f.events().suffix(1)))
        try f.refuses(["product", "remove", "--app", "demo", "--id", "pro"], status: 1, saying: "not in the catalog of app demo (it was removed)")
        try f.refuses(["product", "storekit-price", "--app", "demo", "--id", "pro", "--price", "1", "--currency", "USD"],
                      status: 1, saying: "(it was removed)")
    }

    @Test("checkout set appends the whole configuration with its regional overrides")
    func checkoutSet() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        let json = try f.adminJSON(["checkout", "set", "--app", "demo", "--sheet", "webview", "--enabled", "true",
                                    "--eu", "native:off", "--us", "native:on", "--merchant-id", "merchant.com.example"])
        #expect(json.appended.map { $0["type"] } == ["iap.checkout_configured"])
        #expect(json.appended.first?["data"] == [
            "app_id": "demo",
            "checkout": ["sheet_type": "webview", "is_enabled": true, "apple_merchant_id": "merchant.com.example",
                         "jurisdictions": ["eu": ["sheet_type": "native", "is_enabled": false],
                                           "us": ["sheet_type": "native", "is_enabled": true]]],
        ])
        Self.expectOperatorAct(Array(try f.events().suffix(1)))
        try f.refuses(["checkout", "set", "--app", "demo", "--sheet", "webview", "--enabled", "yes"], status: 2, saying: "--enabled must be true or false")
        try f.refuses(["checkout", "set", "--app", "demo", "--sheet", "popup", "--enabled", "true"], status: 2, saying: "--sheet must be one of webview, native")
        try f.refuses(["checkout", "set", "--app", "demo", "--sheet", "native", "--enabled", "true", "--other", "native:maybe"],
                      status: 2, saying: "--other must be SHEET:on or SHEET:off")
        try f.refuses(["checkout", "set", "--app", "ghost", "--sheet", "native", "--enabled", "true"], status: 1, saying: "app ghost does not exist")
    }

    @Test("campaign migration appends the campaign with its targeting, display copy and prompts read from files")
    func migrationCampaign() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        try f.subscription("pro", app: "demo")
        try f.subscription("pro_web", app: "demo")
        try f.subscription("plus", app: "demo")
        let display = try Self.file(#"{"offer_title": "Switch & save", "offer_cta": "Switch"}"#)
        let prompts = try Self.file(#"{"pro": {"headline": "Save 20%"}}"#)
        let json = try f.adminJSON(["campaign", "migration", "--app", "demo", "--id", "spring", "--product", "pro_web",
                                    "--eligible", "pro,plus", "--discount", "20", "--title", "Save", "--message", "Pay on the web",
                                    "--min-days", "30", "--max-days", "365", "--rollout", "50", "--variants", "1:50,2:50",
                                    "--display", display, "--prompts", prompts, "--presentation", "sheet"])
        #expect(json.appended.map { $0["type"] } == ["iap.migration_campaign_configured"])
        #expect(json.appended.first?["data"] == [
            "app_id": "demo",
            "campaign": [
                "campaign_id": "spring", "product_id": "pro_web", "eligible_product_ids": ["pro", "plus"], "discount_percent": 20,
                "title": "Save", "message": "Pay on the web",
                "targeting": [
                    "min_subscription_days": 30, "max_subscription_days": 365, "free_trial_days": 0, "rollout_percent": 50,
                    "variants": [["id": 1, "weight": 50], ["id": 2, "weight": 50]],
                    "display": ["offer_title": "Switch & save", "offer_message": "", "offer_cta": "Switch", "accepted_title": "",
                                "accepted_message": "", "accepted_cta": "", "completed_title": "", "completed_message": ""],
                    "per_product_prompts": ["pro": ["headline": "Save 20%"]], "checkout_presentation": "sheet",
                ],
            ],
        ])
        Self.expectOperatorAct(Array(try f.events().suffix(1)))

        let base = ["campaign", "migration", "--app", "demo", "--id", "m2", "--product", "pro_web", "--eligible", "pro",
                    "--discount", "20", "--title", "t", "--message", "m"]
        let problems = try f.refuses(base.replacingOption("--discount", with: "0") + ["--rollout", "150", "--variants", "1:0,1:5"],
                                     status: 2, saying: "campaign m2 is not valid")
        for problem in ["discount_percent must be 1 to 100", "rollout_percent must be 0 to 100", "variant weights must be positive",
                        "variant ids must differ"] {
            #expect(problems.errors.contains(problem), "missing: \(problem)")
        }
        try f.refuses(base + ["--min-days", "10", "--max-days", "5"], status: 2, saying: "max_subscription_days is below min_subscription_days")
        try f.refuses(base.replacingOption("--eligible", with: "pro,ghost"), status: 1, saying: "product ghost is not in the catalog")
        try f.refuses(base.replacingOption("--eligible", with: "pro,pro"), status: 2, saying: "names a product more than once")
        try f.refuses(base + ["--display", try Self.file(#"{"offer_tittle": "typo"}"#)], status: 2, saying: "unknown keys offer_tittle")
        try f.refuses(base + ["--display", try Self.file(#"{"offer_title": 5}"#)], status: 2, saying: "offer_title must be a string")
        try f.refuses(base + ["--prompts", try Self.file("[1, 2]")], status: 2, saying: "per_product_prompts must be a JSON object")
        try f.refuses(base + ["--prompts", try Self.file("{not json")], status: 2, saying: "is not JSON")
        try f.refuses(base + ["--display", "/nonexistent/display.json"], status: 2, saying: "cannot read the file")
        try f.refuses(base + ["--variants", "1=50"], status: 2, saying: "--variants must be ID:WEIGHT pairs")
        _ = try f.adminJSON(["product", "set", "--app", "demo", "--id", "coins", "--type", "consumable", "--name", "n", "--description", "d"])
        try f.refuses(base.replacingOption("--product", with: "coins"), status: 1, saying: "product coins of app demo has no web price")
    }

    @Test("campaign upgrade keeps its paths in order; campaign end ends the active one once")
    func upgradeCampaignAndEnd() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        for product in ["monthly", "yearly", "web_monthly", "web_yearly"] { try f.subscription(product, app: "demo") }
        let json = try f.adminJSON(["campaign", "upgrade", "--app", "demo", "--id", "annual",
                                    "--path", "web_monthly:web_yearly:web_to_web,monthly:web_yearly:storekit_to_web"])
        #expect(json.appended.map { $0["type"] } == ["iap.upgrade_offer_configured"])
        #expect(json.appended.first?["data"]?["campaign"]?["upgrade_paths"] == [
            ["from_product_id": "web_monthly", "to_product_id": "web_yearly", "upgrade_type": "web_to_web"],
            ["from_product_id": "monthly", "to_product_id": "web_yearly", "upgrade_type": "storekit_to_web"],
        ])
        #expect(json.appended.first?["data"]?["campaign"]?["targeting"]?["rollout_percent"] == 100)
        Self.expectOperatorAct(Array(try f.events().suffix(1)))
        // --path may also be repeated, one path each, in the order given; other options may not.
        let repeated = try f.adminJSON(["campaign", "upgrade", "--app", "demo", "--id", "annual",
                                        "--path", "monthly:web_yearly:storekit_to_web", "--path", "web_monthly:web_yearly:web_to_web"])
        #expect(repeated.appended.first?["data"]?["campaign"]?["upgrade_paths"]?[0]?["from_product_id"] == "monthly")
        #expect(repeated.appended.first?["data"]?["campaign"]?["upgrade_paths"]?[1]?["from_product_id"] == "web_monthly")
        try f.refuses(["campaign", "upgrade", "--app", "demo", "--id", "a", "--id", "b", "--path", "monthly:web_yearly:storekit_to_web"],
                      status: 2, saying: "--id is given more than once")

        try f.refuses(["campaign", "upgrade", "--app", "demo", "--id", "u2", "--path", "monthly:monthly:web_to_web,yearly:web_yearly:upsell"],
                      status: 2, saying: "--path must be FROM:TO:TYPE")
        try f.refuses(["campaign", "upgrade", "--app", "demo", "--id", "u2", "--path", "monthly:monthly:web_to_web"],
                      status: 2, saying: "path 1 upgrades monthly to itself")
        try f.refuses(["campaign", "upgrade", "--app", "demo", "--id", "u2", "--path", "monthly:ghost:storekit_to_web"],
                      status: 1, saying: "product ghost is not in the catalog of app demo")
        // One id, one campaign: ending it must not end another.
        try f.refuses(["campaign", "migration", "--app", "demo", "--id", "annual", "--product", "web_yearly", "--eligible", "monthly",
                       "--discount", "10", "--title", "t", "--message", "m"], status: 1, saying: "held by the app's active upgrade campaign")

        let ended = try f.adminJSON(["campaign", "end", "--app", "demo", "--id", "annual"], reason: "experiment over")
        #expect(ended.appended.map { $0["type"] } == ["iap.campaign_ended"])
        #expect(ended.appended.first?["data"] == ["app_id": "demo", "campaign_id": "annual"])
        Self.expectOperatorAct(Array(try f.events().suffix(1)), reason: "experiment over")
        try f.refuses(["campaign", "end", "--app", "demo", "--id", "annual"], status: 1, saying: "campaign annual of app demo is not active")
        try f.refuses(["campaign", "end", "--app", "demo", "--id", "never"], status: 1, saying: "app demo has no campaign never")

        // A new migration campaign replaces the active one, which is then no longer active.
        try f.migration("first", app: "demo", product: "web_yearly", eligible: "monthly")
        try f.migration("second", app: "demo", product: "web_yearly", eligible: "monthly")
        try f.refuses(["campaign", "end", "--app", "demo", "--id", "first"], status: 1, saying: "not active")
        _ = try f.adminJSON(["campaign", "end", "--app", "demo", "--id", "second"])
    }

    @Test("purchase record appends a web purchase to the user's stream, idempotently on the app and purchase id")
    func purchaseRecord() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        try f.subscription("pro", app: "demo")
        _ = try f.adminJSON(["product", "set", "--app", "demo", "--id", "coins", "--type", "consumable", "--name", "n", "--description", "d"])
        let arguments = ["purchase", "record", "--app", "demo", "--user", "user-42@example.com", "--product", "pro", "--id", "pi_123",
                         "--at", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z", "--trial"]
        let json = try f.adminJSON(arguments)
        #expect(json.appended.map { $0["type"] } == ["iap.purchase_recorded"])
        #expect(json.appended.map { $0["stream"] } == ["app-demo-purchases"])
        #expect(json.appended.first?["data"] == [
            "app_id": "demo", "user_id": "user-42@example.com", "source": "web", "purchase_id": "pi_123", "original_id": "pi_123",
            "product_id": "pro", "purchased_at": "2026-11-01T10:00:00.000000Z", "expires_at": "2026-12-01T10:00:00.000000Z",
            "trial": true,
        ])
        let events = try f.events()
        #expect(events.last?.idempotencyKey == "iap-purchase:demo:web:pi_123")
        Self.expectOperatorAct(Array(events.suffix(1)))

        // The same purchase again: already recorded, nothing appended.
        let head = try f.head()
        let again = f.admin(arguments)
        #expect(again.status == 0 && again.output.contains("already recorded (nothing appended)"))
        #expect(try f.head() == head)
        try f.refuses(arguments.replacingOption("--at", with: "2026-11-02T10:00:00Z"), status: 1,
                      saying: "purchase pi_123 of app demo is already recorded, with other details")

        // Renewal of the same subscription, --at defaulting to the clock (2026-11-15T12:00:00Z).
        let renewal = try f.adminJSON(["purchase", "record", "--app", "demo", "--user", "u1", "--product", "pro", "--id", "pi_124",
                                       "--original-id", "pi_123", "--expires", "2026-12-15T12:00:00Z"])
        #expect(renewal.appended.first?["data"]?["original_id"] == "pi_123")
        #expect(renewal.appended.first?["data"]?["purchased_at"] == "2026-11-15T12:00:00.000000Z")
        #expect(renewal.appended.first?["data"]?["trial"] == false)

        let base = ["purchase", "record", "--app", "demo", "--user", "u1", "--product", "coins", "--id", "pi_200"]
        try f.refuses(base.replacingOption("--product", with: "ghost"), status: 1, saying: "product ghost was never in the catalog of app demo")
        try f.refuses(base + ["--expires", "2026-12-01T00:00:00Z"], status: 1, saying: "does not expire")
        try f.refuses(base + ["--trial"], status: 1, saying: "has no free trial")
        try f.refuses(base.replacingOption("--product", with: "pro") + ["--trial"], status: 1, saying: "--expires is required")
        try f.refuses(base + ["--at", "2026-11-16T00:00:00Z"], status: 1, saying: "is later than now")
        try f.refuses(base + ["--at", "2026-11-02T00:00:00Z", "--expires", "2026-11-01T00:00:00Z"], status: 2, saying: "--expires must be after --at")
        try f.refuses(base + ["--at", "yesterday"], status: 2, saying: "--at \"yesterday\" is not an RFC 3339 instant")
        try f.refuses(base.replacingOption("--user", with: "user 42"), status: 2, saying: "--user \"user 42\" is not a valid user id")
        try f.refuses(base.replacingOption("--app", with: "ghost"), status: 1, saying: "app ghost does not exist")
    }

    @Test("campaign stats: a clear error before the IAP projection exists; then a table and JSON of impressions and shares")
    func campaignStats() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        try f.app("demo")
        let missing = f.admin(["campaign", "stats", "--app", "demo"], reason: nil)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("the IAP projection does not exist yet"))

        // The projection's table as the projector creates it, filled by hand.
        let db = try f.db.connect()
        try db.query("CREATE SCHEMA IF NOT EXISTS proj_iap")
        try db.query("""
            CREATE TABLE IF NOT EXISTS proj_iap.impressions (app_id text NOT NULL, campaign_id text NOT NULL, variant_id bigint,
                count bigint NOT NULL)
            """)
        try db.query("GRANT USAGE ON SCHEMA proj_iap TO ledger_service, ledger_operator")
        try db.query("GRANT SELECT ON proj_iap.impressions TO ledger_service, ledger_operator")
        #expect(f.admin(["campaign", "stats", "--app", "demo"], reason: nil).output == "no impressions counted for app demo\n")
        try db.query("""
            INSERT INTO proj_iap.impressions (app_id, campaign_id, variant_id, count) VALUES
                ('demo', 'spring', 2, 30), ('demo', 'spring', NULL, 10), ('demo', 'spring', 1, 30), ('demo', 'annual', NULL, 7),
                ('other', 'spring', 1, 1000)
            """)
        let head = try f.head()
        let text = f.admin(["campaign", "stats", "--app", "demo"], reason: nil)
        #expect(text.status == 0)
        #expect(text.output == """
            campaign  variant  impressions   share
            annual    -                  7  100.0%
            spring    -                 10   14.3%
            spring    1                 30   42.9%
            spring    2                 30   42.9%

            """)
        let json = try JSONValue.parse(f.admin(["campaign", "stats", "--app", "demo", "--json"], reason: nil).output)
        #expect(json["app_id"] == "demo" && json["command"] == "campaign stats")
        #expect(json["impressions"]?[1] == ["campaign_id": "spring", "variant_id": nil, "count": 10,
                                            "share_percent": try JSONValue.decimal(fromLiteral: "14.3")])
        #expect(json["impressions"]?.arrayValue?.count == 4)
        #expect(json["operator"] == nil)
        #expect(try f.head() == head)
        #expect(f.admin(["campaign", "stats", "--app", "ghost"], reason: nil).errors.contains("app ghost does not exist"))
    }

    @Test("W14: user show lists an operator's correction as recorded_by operator, in the API's JSON, and a web subscription of the processor's")
    func userShow() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.app("demo")
        try f.subscription("pro", app: "demo")
        _ = try f.adminJSON(["purchase", "record", "--app", "demo", "--user", "u7", "--product", "pro", "--id", "pi_9",
                             "--at", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z"])
        try f.append(StripeEventRecorded(
            appID: "demo", eventID: "evt_1", eventType: "customer.subscription.created", created: t("2026-11-10T00:00:00Z"), livemode: false,
            account: nil, userID: "u7", fact: .subscription(StripeFact.Subscription(
                subscriptionID: "sub_7", customerID: "cus_7", status: "past_due", productID: "pro", createdAt: t("2026-11-10T00:00:00Z"),
                periodEnd: t("2026-12-10T00:00:00Z"), trialStart: nil, trialEnd: nil, cancelAtPeriodEnd: false, canceledAt: nil,
                endedAt: nil, deleted: false))), stream: "app-demo-stripe")
        let head = try f.head()
        #expect(try Poll.until(timeout: 20) { (try f.rows("SELECT position FROM proj_web._checkpoint").first?.first ?? nil).flatMap { Int64($0) } ?? -1 >= head })
        let shown = f.admin(["user", "show", "--app", "demo", "--user", "u7", "--json"], reason: nil)
        try #require(shown.status == 0, "\(shown.errors)")
        let json = try JSONValue.parse(shown.output)
        #expect(json["user_id"] == "u7" && json["app_id"] == "demo")
        let held = try #require(json["entitlements"]?.arrayValue)
        #expect(held.map { $0["recorded_by"] } == ["operator", "stripe"])
        #expect(held.map { $0["status"] } == ["active", "past_due"])
        #expect(held.first?["expires_at"] == "2026-12-01T10:00:00.000000Z")
        #expect(json["web_subscriptions"]?[0]?["status"] == "past_due")
        let text = f.admin(["user", "show", "--app", "demo", "--user", "u7"], reason: nil)
        #expect(text.status == 0 && text.output.contains("web subscriptions:") && text.output.contains("sub_7"), "\(text.output)")
        #expect(f.admin(["user", "show", "--app", "ghost", "--user", "u7"], reason: nil).status != 0)
    }

    @Test("every catalog command is listed in the usage")
    func usage() {
        for words in ["app create", "app key issue", "app key revoke", "app disable", "app enable", "app stripe set", "product set",
                      "product storekit-price", "product remove", "checkout set", "campaign migration", "campaign upgrade",
                      "campaign end", "campaign stats", "purchase record", "user show"] {
            #expect(AdminCommand.usage.contains("ledger admin \(words) "), "missing: \(words)")
        }
    }

    /// A temporary file holding `text`, for `--display` and `--prompts`.
    static func file(_ text: String) throws -> String {
        try ScratchFile.write(text, prefix: "catalog", suffix: ".json")
    }
}

extension AdminFixture {
    /// Runs a command that must be refused with `status`, saying `message`, and append nothing.
    @discardableResult
    func refuses(_ arguments: [String], status: Int32, saying message: String,
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> AdminOutcome {
        let head = try head()
        let outcome = admin(arguments)
        #expect(outcome.status == status, "\(arguments.joined(separator: " ")): \(outcome.errors)", sourceLocation: sourceLocation)
        #expect(outcome.errors.contains(message), "\(outcome.errors) does not say \(message)", sourceLocation: sourceLocation)
        #expect(try self.head() == head, "\(arguments.joined(separator: " ")) appended events", sourceLocation: sourceLocation)
        return outcome
    }
}

fileprivate extension [String] {
    /// The arguments with the value after `option` replaced.
    func replacingOption(_ option: String, with value: String) -> [String] {
        guard let index = firstIndex(of: option) else { return self + [option, value] }
        var copy = self
        copy[index + 1] = value
        return copy
    }
}
