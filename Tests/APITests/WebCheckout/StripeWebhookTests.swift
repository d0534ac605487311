import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// Stripe's webhooks end to end: the real service over HTTP as the API's login, its
/// projector, and GET /v1/iap/entitlements reading what they recorded (W1, W2, W5, W12,
/// W13 in docs/catalog.md).
@Suite("Stripe's webhooks, verified, recorded once and read as entitlements", .needsSharedData, .bounded)
struct StripeWebhookTests {
    static let app = "webapp"
    static let now: Int64 = 1_780_000_000   // 2026-05-28

    func fixture(secrets: [String] = [BillingFixture.stripeSecret]) throws -> (BillingFixture, String) {
        let f = try BillingFixture(stripeSecrets: [Self.app: secrets])
        f.service.clock.set(Timestamp(microseconds: Self.now * 1_000_000)!.iso8601)
        let key = try f.app(Self.app)
        try SampleCatalog.install(f, app: Self.app)
        return (f, key)
    }

    func logSize(_ f: BillingFixture) throws -> Int64 { try f.service.store.log.headPosition() }

    @Test("W1: a missing, malformed, stale or mismatched signature, or a body that is no event, is 400 with its code and appends nothing")
    func refusals() throws {
        let (f, _) = try fixture()
        defer { f.shutdown() }
        var events = StripeEvents()
        let event = events.event("customer.subscription.created", StripeEvents.subscription(
            "sub_1", customer: "cus_1", status: "trialing", product: SampleCatalog.monthly.id, created: Self.now, periodEnd: Self.now + 604_800,
            trialEnd: Self.now + 604_800), created: Self.now)
        let before = try logSize(f)
        let cases: [(String, () throws -> (status: Int, body: JSONValue))] = [
            ("stripe_signature_missing", { try f.postStripe(event, app: Self.app, header: .some(nil)) }),
            ("stripe_signature_malformed", { try f.postStripe(event, app: Self.app, header: "v1=abc") }),
            ("stripe_signature_stale", { try f.postStripe(event, app: Self.app, at: Self.now - 301) }),
            ("stripe_signature_mismatch", { try f.postStripe(event, app: Self.app, secrets: ["whsec_someone_else_0123456789ab"]) }),
            ("stripe_event_malformed", { try f.postStripe(["id": "evt_1", "type": "x"], app: Self.app) }),
        ]
        for (code, post) in cases {
            let (status, body) = try post()
            #expect(status == 400, "\(code): \(body)")
            #expect(body["code"]?.stringValue == code)
        }
        let (status, body) = try f.postStripe(event, app: "no-such-app")
        #expect(status == 404 && body["code"]?.stringValue == "stripe_endpoint_not_configured")
        #expect(try logSize(f) == before)
    }

    @Test("W2: the event's id is its key: a redelivery answers 200 duplicate and appends nothing")
    func redelivery() throws {
        let (f, _) = try fixture()
        defer { f.shutdown() }
        var events = StripeEvents()
        let event = events.event("invoice.created", ["id": "in_1", "object": "invoice"], created: Self.now)
        let first = try f.postStripe(event, app: Self.app)
        #expect(first.status == 200 && first.body["status"] == "recorded" && first.body["fact"] == "seen")
        let size = try logSize(f)
        let again = try f.postStripe(event, app: Self.app)
        #expect(again.status == 200 && again.body["status"] == "duplicate")
        #expect(try logSize(f) == size)
    }

    @Test("W1: a rolled secret and its predecessor both verify while both are configured; once removed, the old one is refused")
    func rolledSecret() throws {
        var events = StripeEvents()
        let event = events.event("invoice.created", ["id": "in_2", "object": "invoice"], created: Self.now)
        do {
            let (f, _) = try fixture(secrets: [BillingFixture.rolledSecret, BillingFixture.stripeSecret])
            defer { f.shutdown() }
            #expect(try f.postStripe(event, app: Self.app, secrets: [BillingFixture.stripeSecret]).status == 200)
            #expect(try f.postStripe(event, app: Self.app, secrets: [BillingFixture.rolledSecret]).status == 200)
        }
        let (f, _) = try fixture(secrets: [BillingFixture.rolledSecret])
        defer { f.shutdown() }
        let old = try f.postStripe(event, app: Self.app, secrets: [BillingFixture.stripeSecret])
        #expect(old.status == 400 && old.body["code"] == "stripe_signature_mismatch")
        #expect(try f.postStripe(event, app: Self.app, secrets: [BillingFixture.stripeSecret, BillingFixture.rolledSecret]).status == 200)
    }

    @Test("W5, W12: a free trial on the web is an entitlement in trial, then active; the user is not offered the trial again")
    func trialToActive() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        var events = StripeEvents()
        let trialEnd = Self.now + 7 * 86_400
        let product = SampleCatalog.monthly.id
        #expect(try f.products(key: key, user: "ana").body["products"]?[0]?["is_trial_eligible"] == true)
        // Delivered out of order: the subscription before the checkout that names the user.
        let sub = try f.postStripe(events.event("customer.subscription.created", StripeEvents.subscription(
            "sub_ana", customer: "cus_ana", status: "trialing", product: product, created: Self.now, periodEnd: trialEnd, trialEnd: trialEnd),
            created: Self.now), app: Self.app)
        #expect(sub.status == 200 && sub.body["fact"] == "subscription")
        #expect(try f.postStripe(events.event("checkout.session.completed", StripeEvents.checkout(
            "cs_ana", user: "ana", customer: "cus_ana", subscription: "sub_ana", product: product, created: Self.now),
            created: Self.now), app: Self.app).status == 200)
        let (status, body) = try f.entitlements(key: key, user: "ana")
        #expect(status == 200, "\(body)")
        let held = try #require(body["entitlements"]?.arrayValue)
        #expect(held.count == 1)
        #expect(held.first?["product_id"]?.stringValue == product && held.first?["source"] == "web")
        #expect(held.first?["status"] == "trialing" && held.first?["trial"]?["mode"] == "free" && held.first?["will_renew"] == true)
        #expect(held.first?["recorded_by"] == "stripe")
        #expect(try f.products(key: key, user: "ana").body["products"]?[0]?["is_trial_eligible"] == false)

        // The trial converts; an older update delivered late changes nothing (W4).
        let periodEnd = trialEnd + 30 * 86_400
        let late = events.event("customer.subscription.updated", StripeEvents.subscription(
            "sub_ana", customer: "cus_ana", status: "trialing", product: product, created: Self.now, periodEnd: trialEnd, trialEnd: trialEnd,
            cancelAtPeriodEnd: true), created: Self.now + 60)
        #expect(try f.postStripe(events.event("customer.subscription.updated", StripeEvents.subscription(
            "sub_ana", customer: "cus_ana", status: "active", product: product, created: Self.now, periodEnd: periodEnd, trialEnd: trialEnd),
            created: trialEnd), app: Self.app).status == 200)
        #expect(try f.postStripe(late, app: Self.app).status == 200)
        f.service.clock.set(Timestamp(microseconds: (trialEnd + 3_600) * 1_000_000)!.iso8601)
        let after = try f.entitlements(key: key, user: "ana").body["entitlements"]?[0]
        #expect(after?["status"] == "active" && after?["trial"] == .null && after?["will_renew"] == true)
        #expect(after?["expires_at"]?.stringValue == Timestamp(microseconds: periodEnd * 1_000_000)!.iso8601)
        // Another user holds nothing.
        #expect(try f.entitlements(key: key, user: "bo").body["entitlements"] == .array([]))
    }

    @Test("W13: once the app's Stripe account is recorded in live mode, a test-mode event is 422 and recorded nowhere")
    func modeMismatch() throws {
        let (f, _) = try fixture()
        defer { f.shutdown() }
        try f.configure(Self.app, AppStripeConfigured(appID: Self.app, accountID: "acct_1Live", mode: .live))
        var events = StripeEvents()
        let size = try logSize(f)
        let (status, body) = try f.postStripe(events.event("invoice.created", ["id": "in_3", "object": "invoice"], created: Self.now), app: Self.app)
        #expect(status == 422 && body["code"] == "stripe_mode_mismatch", "\(body)")
        #expect(try logSize(f) == size)
        events.livemode = true
        #expect(try f.postStripe(events.event("invoice.created", ["id": "in_3", "object": "invoice"], created: Self.now), app: Self.app).status == 200)
    }

    @Test("GET /v1/iap/entitlements: user_id is required, and a StoreKit subscription is listed with will_renew null")
    func storeKitEntitlement() throws {
        let (f, key) = try fixture()
        defer { f.shutdown() }
        let missing = try f.service.get("/v1/iap/entitlements", headers: [("X-ZeroSettle-Key", key)])
        #expect(missing.status == 400)
        #expect(try f.service.get("/v1/iap/entitlements?user_id=x").status == 401)
        func at(_ seconds: Int64) -> Timestamp { Timestamp(microseconds: (Self.now + seconds) * 1_000_000)! }
        try f.purchase(Self.app, user: "cy", product: SampleCatalog.yearly.id, id: "2000000001", at: at(-86_400), expires: at(300 * 86_400))
        try f.purchase(Self.app, user: "cy", product: SampleCatalog.coins.id, id: "2000000002", at: at(-3_600), expires: nil)
        let held = try #require(try f.entitlements(key: key, user: "cy").body["entitlements"]?.arrayValue)
        #expect(held.count == 1)
        #expect(held.first?["product_id"]?.stringValue == SampleCatalog.yearly.id && held.first?["source"] == "storekit")
        #expect(held.first?["will_renew"] == .null && held.first?["recorded_by"] == "app_store")
    }
}
