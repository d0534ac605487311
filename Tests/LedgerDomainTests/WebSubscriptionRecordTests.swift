import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// What `WebCheckoutDecider.record` appends of one of Stripe's events for an app (docs/catalog.md,
/// "Web subscriptions"): once under its id (W2), whoever it names or not (W3), only for the
/// app's own Stripe account and mode (W13), and only amounts the folds can rely on.
@Suite("Web subscriptions: recording Stripe's events (W2, W3, W13)", .bounded)
struct WebSubscriptionRecordTests {
    /// The app as its stream tells it: created, and maybe set to run on a Stripe account.
    static func app(_ stripe: (account: String, mode: KeyMode)? = nil) throws -> AppState {
        var records = [AppState.Record(type: AppCreated.type, data: try JSONValueEncoder().encode(
            AppCreated(appID: WebFacts.app, name: "Demo", bundleID: "com.example.demo")), streamVersion: 1)]
        if let stripe {
            records.append(AppState.Record(type: AppStripeConfigured.type, data: try JSONValueEncoder().encode(
                AppStripeConfigured(appID: WebFacts.app, accountID: stripe.account, mode: stripe.mode)), streamVersion: 2))
        }
        return try #require(try AppState(appID: WebFacts.app, stream: records))
    }

    static func event(_ fact: StripeFact, id: String = "evt_1", livemode: Bool = false, account: String? = nil, user: String? = "u1") -> StripeEventRecorded {
        WebFacts.event(id, "customer.subscription.updated", at: WebFacts.day(3), user: user, livemode: livemode, account: account, fact)
    }

    static let active = WebFacts.subscription("sub_1", status: "active", created: WebFacts.day(0), periodEnd: WebFacts.day(30))

    static func code(_ event: StripeEventRecorded, _ app: AppState) -> String? {
        do { _ = try WebCheckoutDecider.record(event, app: app); return nil } catch { return error.code.rawValue }
    }

    @Test("W2: one event on the app's Stripe stream at Stripe's time, keyed by its id: a redelivery has the same key, another event or app another")
    func once() throws {
        let app = try Self.app()
        let event = Self.event(Self.active)
        let decision = try WebCheckoutDecider.record(event, app: app)
        #expect(decision.events.count == 1)
        let pending = try #require(decision.events.first)
        #expect(pending.stream == WebCheckoutDecider.stream(WebFacts.app))
        #expect(pending.type == StripeEventRecorded.type)
        #expect(pending.occurredAt == event.created)
        #expect(try pending.decode(StripeEventRecorded.self) == event)
        #expect(decision.expectedVersions.isEmpty)
        let key = pending.idempotencyKey ?? decision.idempotencyKey
        #expect(key != nil)
        let again = try WebCheckoutDecider.record(event, app: app)
        #expect((again.events.first?.idempotencyKey ?? again.idempotencyKey) == key)
        let other = try WebCheckoutDecider.record(Self.event(Self.active, id: "evt_2"), app: app)
        #expect((other.events.first?.idempotencyKey ?? other.idempotencyKey) != key)
        #expect(WebCheckoutDecider.key(app: "app2", event: "evt_1") != WebCheckoutDecider.key(app: WebFacts.app, event: "evt_1"))
    }

    @Test("W3: a fact that names no user, or reaches none, is recorded all the same")
    func unattributedRecorded() throws {
        let lonely = WebFacts.refund("ch_x", paymentIntent: nil, invoice: nil, customer: nil, amount: 500, refunded: 500)
        #expect(Self.code(Self.event(lonely, user: nil), try Self.app()) == nil)
        #expect(Self.code(Self.event(.seen, user: nil), try Self.app()) == nil)
    }

    @Test("W13: once the app's account and mode are recorded, an event of the other mode or of another connected account is refused")
    func theAppsAccount() throws {
        let live = try Self.app(("acct_1Live", .live))
        let test = try Self.app(("acct_1Test", .test))
        #expect(Self.code(Self.event(Self.active, livemode: true), live) == nil)
        #expect(Self.code(Self.event(Self.active, livemode: true, account: "acct_1Live"), live) == nil)
        #expect(Self.code(Self.event(Self.active, livemode: false), live) == "stripe_mode_mismatch")
        #expect(Self.code(Self.event(Self.active, livemode: true), test) == "stripe_mode_mismatch")
        #expect(Self.code(Self.event(Self.active, livemode: false), test) == nil)
        #expect(Self.code(Self.event(Self.active, livemode: true, account: "acct_Other"), live) == "stripe_account_mismatch")
        #expect(Self.code(Self.event(Self.active, livemode: false, account: "acct_1Test"), test) == nil)
        // An app whose account is not recorded takes either mode and any account.
        let unset = try Self.app()
        #expect(Self.code(Self.event(Self.active, livemode: true, account: "acct_Any"), unset) == nil)
        #expect(Self.code(Self.event(Self.active, livemode: false), unset) == nil)
    }

    @Test("amounts: never negative, never past the ceiling, and a refund never more than its charge")
    func amounts() throws {
        let app = try Self.app()
        let max = WebCheckoutDecider.maximumAmount
        let invalid: [StripeFact] = [
            WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: nil, paid: true, amount: -1, reason: "subscription_cycle"),
            WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: nil, paid: false, amount: max + 1, reason: "subscription_cycle"),
            WebFacts.hold("pi_1", .placed, subscription: "sub_1", amount: -5),
            WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: nil, amount: 999, refunded: 1_000),
            WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: nil, amount: -1, refunded: -1),
            WebFacts.dispute("dp_1", charge: "ch_1", paymentIntent: "pi_1", amount: -1, status: "needs_response", closed: false),
            WebFacts.checkout("cs_1", subscription: "sub_1", product: "monthly", amount: -100),
            WebFacts.checkout("cs_1", subscription: "sub_1", product: "monthly", amount: max + 1),
        ]
        for fact in invalid { #expect(Self.code(Self.event(fact), app) == "stripe_event_invalid", "\(fact)") }
        let valid: [StripeFact] = [
            WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: nil, paid: true, amount: max, reason: "subscription_cycle"),
            WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: nil, paid: true, amount: 0, reason: "subscription_create"),
            WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: nil, amount: 999, refunded: 999),
            WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: nil, amount: 999, refunded: 0),
            WebFacts.dispute("dp_1", charge: "ch_1", paymentIntent: "pi_1", amount: max, status: "lost", closed: true),
            WebFacts.checkout("cs_1", subscription: "sub_1", product: "monthly", amount: 0),
        ]
        for fact in valid { #expect(Self.code(Self.event(fact), app) == nil, "\(fact)") }
    }
}
