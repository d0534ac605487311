import LedgerDomain
import Testing
import TestSupport

/// `days` (and `seconds`) after 2026-01-01T00:00:00Z.
private func day(_ days: Int64, _ seconds: Int64 = 0) -> Timestamp { WebFacts.day(days, seconds) }

/// W3–W7 (docs/catalog.md, "Web subscriptions"): whose a subscription is, which of its
/// facts decides its state, and its trial in the catalog's three modes, on short
/// histories written out event by event (`WebHoldings.fold`).
@Suite("Web subscriptions: whose, in which order, and trials (W3–W7)", .bounded)
struct WebSubscriptionRulesTests {
    /// sub_1 of cus_1 (monthly), bought on day 0 with no trial: its first invoice in_1 paid
    /// through pi_1, the checkout naming `user`.
    static func bought(user: String? = "u1", subscriptionUser: String? = nil) -> StripeStory {
        var s = StripeStory()
        s.add("customer.subscription.created", day(0), user: subscriptionUser,
              WebFacts.subscription("sub_1", status: "incomplete", created: day(0), periodEnd: day(30)))
        s.add("invoice.paid", day(0), WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: "pi_1", paid: true, amount: 999,
                                                       reason: "subscription_create"))
        s.add("customer.subscription.updated", day(0), user: subscriptionUser,
              WebFacts.subscription("sub_1", status: "active", created: day(0), periodEnd: day(30)))
        s.add("checkout.session.completed", day(0, 2), user: user,
              WebFacts.checkout("cs_1", subscription: "sub_1", product: "monthly", amount: 999))
        return s
    }

    /// sub_1 of cus_1 (monthly) in a 14-day free trial from day 0, the checkout naming u1.
    static func freeTrial(user: String? = "u1") -> StripeStory {
        var s = StripeStory()
        s.add("customer.subscription.created", day(0),
              WebFacts.subscription("sub_1", status: "trialing", created: day(0), periodEnd: day(14), trialEnd: day(14)))
        s.add("invoice.paid", day(0), WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: nil, paid: true, amount: 0,
                                                       reason: "subscription_create"))
        s.add("checkout.session.completed", day(0, 1), user: user,
              WebFacts.checkout("cs_1", subscription: "sub_1", status: "no_payment_required", product: "monthly", amount: 0))
        return s
    }

    /// The trial of `freeTrial` converting on day 14: in_2 paid through pi_2, a month's period.
    static func convert(_ s: inout StripeStory) {
        s.add("invoice.paid", day(14), WebFacts.invoice("in_2", subscription: "sub_1", paymentIntent: "pi_2", paid: true, amount: 999,
                                                        reason: "subscription_cycle"))
        s.add("customer.subscription.updated", day(14),
              WebFacts.subscription("sub_1", status: "active", created: day(0), periodEnd: day(44), trialEnd: day(14)))
    }

    // MARK: - W3 Whose

    @Test("W3: the checkout's client_reference_id names the user of the subscription whose own facts name none")
    func checkoutNamesTheUser() {
        #expect(Self.bought(user: "u1").subscription("sub_1")?.userID == "u1")
        // The subscription's metadata.user_id does too, when no checkout is recorded.
        var api = Self.bought(user: nil, subscriptionUser: "u2")
        api.events.removeAll { $0.eventType.hasPrefix("checkout.") }
        #expect(api.subscription("sub_1")?.userID == "u2")
    }

    @Test("W3: a subscription naming no user, of a customer another subscription's checkout named, is that user's; another customer's is not")
    func sharedCustomer() {
        var s = Self.bought(user: "u1")
        s.add("customer.subscription.created", day(40),
              WebFacts.subscription("sub_2", status: "active", product: "pro", created: day(40), periodEnd: day(70)))
        s.add("customer.subscription.created", day(41),
              WebFacts.subscription("sub_3", customer: "cus_2", status: "active", product: "pro", created: day(41), periodEnd: day(71)))
        s.add("checkout.session.completed", day(41, 1), user: "u2",
              WebFacts.checkout("cs_3", customer: "cus_2", subscription: "sub_3", product: "pro", amount: 999))
        #expect(s.subscription("sub_2")?.userID == "u1")
        #expect(s.subscription("sub_3")?.userID == "u2")
    }

    @Test("W3: a user named only by the trial's hold (the payment intent's metadata.user_id) is the user of the subscription it names")
    func userThroughTheHold() {
        var s = Self.freeTrial(user: nil)
        s.add("payment_intent.amount_capturable_updated", day(0, 5), user: "u1", WebFacts.hold("pi_h", .placed, subscription: "sub_1"))
        // Failed before: the fold reads users from checkouts and subscription facts only,
        // never from the other facts they share ids with (no fixpoint).
        #expect(s.subscription("sub_1")?.userID == "u1")
    }

    @Test("W3: a guest's one-time purchase is the user its payment intent names; its refund and dispute, naming none, reach it through the payment intent")
    func guestPurchase() {
        var s = StripeStory()
        s.add("checkout.session.completed", day(3), WebFacts.checkout("cs_9", mode: "payment", customer: nil, subscription: nil,
                                                                     paymentIntent: "pi_9", product: "lifetime", amount: 4_999))
        s.add("payment_intent.succeeded", day(3), user: "u1", WebFacts.payment("pi_9", customer: nil, amount: 4_999))
        s.add("charge.dispute.created", day(9), WebFacts.dispute("dp_9", charge: "ch_9", paymentIntent: "pi_9", amount: 4_999,
                                                                 status: "needs_response", closed: false))
        let payment = s.holdings.payments.first
        #expect(payment?.disputed == true)
        #expect(payment?.isHeld(at: day(10)) == true)
        s.add("charge.refunded", day(10), WebFacts.refund("ch_9", paymentIntent: "pi_9", invoice: nil, customer: nil, amount: 4_999, refunded: 4_999))
        #expect(s.holdings.payments.first?.revokedAt == day(10))
        // Failed before: the purchase's user is read from its checkout and customer only.
        #expect(s.holdings.payments.first?.userID == "u1")
    }

    @Test("W3: a refund and a dispute naming no user reach the subscription through subscription → invoice → payment intent → charge")
    func chainToTheSubscription() {
        var s = Self.bought(user: "u1")
        // A partial refund names the charge and its payment intent only (newer API versions
        // name no invoice on a charge); the dispute names the charge only.
        s.add("charge.refunded", day(5), WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: nil, customer: nil, amount: 999, refunded: 100))
        s.add("charge.dispute.created", day(8), WebFacts.dispute("dp_1", charge: "ch_1", paymentIntent: nil, amount: 899,
                                                                 status: "needs_response", closed: false))
        #expect(s.subscription("sub_1")?.disputed == true)
        s.add("charge.dispute.closed", day(40), WebFacts.dispute("dp_1", charge: "ch_1", paymentIntent: nil, amount: 899, status: "lost", closed: true))
        let sub = s.subscription("sub_1")
        #expect(sub?.revokedAt == day(40))
        #expect(sub?.userID == "u1")
    }

    @Test("W3: facts that reach no user are folded all the same, with no user")
    func noUser() {
        let sub = Self.bought(user: nil).subscription("sub_1")
        #expect(sub?.userID == nil)
        #expect(sub?.isHeld(at: day(1)) == true)
    }

    // MARK: - W4 Order

    @Test("W4: a customer.subscription.updated older than the one recorded changes nothing")
    func olderUpdate() {
        var s = Self.freeTrial()
        Self.convert(&s)
        // Set to cancel on day 10, then back on day 12: both delivered after the conversion.
        s.add("customer.subscription.updated", day(12), WebFacts.subscription("sub_1", status: "trialing", created: day(0), periodEnd: day(14),
                                                                            trialEnd: day(14)))
        s.add("customer.subscription.updated", day(10), WebFacts.subscription("sub_1", status: "trialing", created: day(0), periodEnd: day(14),
                                                                            trialEnd: day(14), cancelAtPeriodEnd: true, canceledAt: day(10)))
        let sub = s.subscription("sub_1")
        #expect(sub?.status == .active)
        #expect(sub?.accessEndsAt == day(44))
        #expect(sub?.willRenew == true)
    }

    @Test("W4: a same-second tie goes to the later stage of the lifecycle, whatever the event ids; then to the greater event id")
    func sameSecondTie() {
        func state(_ facts: [(String, StripeFact)]) -> WebSubscription? {
            var s = StripeStory()
            for (id, fact) in facts { s.add("customer.subscription.updated", day(3), id: id, fact) }
            return s.subscription("sub_1")
        }
        let incomplete = WebFacts.subscription("sub_1", status: "incomplete", created: day(3), periodEnd: day(33))
        let trialing = WebFacts.subscription("sub_1", status: "trialing", created: day(3), periodEnd: day(10), trialEnd: day(10))
        let active = WebFacts.subscription("sub_1", status: "active", created: day(3), periodEnd: day(33))
        let pastDue = WebFacts.subscription("sub_1", status: "past_due", created: day(3), periodEnd: day(33))
        let canceled = WebFacts.subscription("sub_1", status: "canceled", created: day(3), periodEnd: day(33), canceledAt: day(3), endedAt: day(3))
        let deleted = WebFacts.subscription("sub_1", status: "active", created: day(3), periodEnd: day(33), canceledAt: day(3), endedAt: day(3), deleted: true)
        #expect(state([("evt_a", active), ("evt_z", incomplete)])?.status == .active)
        #expect(state([("evt_a", active), ("evt_z", trialing)])?.status == .active)
        #expect(state([("evt_a", pastDue), ("evt_z", active)])?.status == .pastDue)
        #expect(state([("evt_a", canceled), ("evt_z", pastDue)])?.status == .ended)
        #expect(state([("evt_a", deleted), ("evt_z", canceled)])?.status == .ended)
        #expect(state([("evt_a", deleted), ("evt_z", active)])?.status == .ended, "deleted is the last stage, whatever its status says")
        // The same stage: the greater event id.
        let cancels = WebFacts.subscription("sub_1", status: "active", created: day(3), periodEnd: day(33), cancelAtPeriodEnd: true, canceledAt: day(3))
        #expect(state([("evt_b", cancels), ("evt_a", active)])?.willRenew == false)
        #expect(state([("evt_a", cancels), ("evt_b", active)])?.willRenew == true)
    }

    @Test("W4: the same facts in every order, any of them twice, give the same state")
    func everyOrder() {
        var s = Self.freeTrial()
        Self.convert(&s)
        s.add("customer.subscription.updated", day(20), WebFacts.subscription("sub_1", status: "active", created: day(0), periodEnd: day(44),
                                                                            trialEnd: day(14), cancelAtPeriodEnd: true, canceledAt: day(20)))
        let expected = s.holdings
        #expect(expected.subscriptions.first?.willRenew == false)
        var permutations = 0
        func permute(_ prefix: [StripeEventRecorded], _ rest: [StripeEventRecorded]) {
            guard !rest.isEmpty else {
                permutations += 1
                #expect(WebHoldings.fold(prefix) == expected, "\(prefix.map(\.eventID))")
                #expect(WebHoldings.fold(prefix + [prefix[permutations % prefix.count]]) == expected, "\(prefix.map(\.eventID)) with one twice")
                return
            }
            for i in rest.indices { permute(prefix + [rest[i]], Array(rest[..<i] + rest[(i + 1)...])) }
        }
        permute([], s.events)
        #expect(permutations == 720)
    }

    // MARK: - W5 Free trial

    @Test("W5: a free trial is held until trial_end and renews unless set to cancel")
    func freeTrialHeld() {
        var s = Self.freeTrial()
        let sub = s.subscription("sub_1")
        #expect(sub?.status == .trialing)
        #expect(sub?.accessEndsAt == day(14))
        #expect(sub?.willRenew == true)
        #expect(sub?.inTrial(at: day(13)) == true)
        #expect(sub?.isHeld(at: day(14, -1)) == true)
        #expect(sub?.isHeld(at: day(14)) == false)
        s.add("customer.subscription.updated", day(5), WebFacts.subscription("sub_1", status: "trialing", created: day(0), periodEnd: day(14),
                                                                           trialEnd: day(14), cancelAtPeriodEnd: true, canceledAt: day(5)))
        let canceling = s.subscription("sub_1")
        #expect(canceling?.willRenew == false)
        #expect(canceling?.isHeld(at: day(14, -1)) == true)
    }

    @Test("W5: a free trial converts when a later fact says active, with its new period")
    func freeTrialConverts() {
        var s = Self.freeTrial()
        Self.convert(&s)
        let sub = s.subscription("sub_1")
        #expect(sub?.status == .active)
        #expect(sub?.accessEndsAt == day(44))
        #expect(sub?.willRenew == true)
        #expect(sub?.trialEnd == day(14))
        #expect(sub?.inTrial(at: day(15)) == false)
        #expect(sub?.isHeld(at: day(44, -1)) == true)
        #expect(sub?.isHeld(at: day(44)) == false)
    }

    // MARK: - W6 Paid trial

    /// sub_1 in a paid trial from day 0 to day 7: created `incomplete`, its first invoice
    /// in_1 charging 199 upfront through pi_1, then `trialing`.
    static func paidTrial() -> StripeStory {
        var s = StripeStory()
        s.add("customer.subscription.created", day(0),
              WebFacts.subscription("sub_1", status: "incomplete", created: day(0), periodEnd: day(7), trialEnd: day(7)))
        s.add("invoice.paid", day(0), WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: "pi_1", paid: true, amount: 199,
                                                       reason: "subscription_create"))
        s.add("customer.subscription.updated", day(0, 1),
              WebFacts.subscription("sub_1", status: "trialing", created: day(0), periodEnd: day(7), trialEnd: day(7)))
        s.add("checkout.session.completed", day(0, 1), user: "u1", WebFacts.checkout("cs_1", subscription: "sub_1", product: "monthly", amount: 199))
        return s
    }

    @Test("W6: a paid trial's first invoice is its upfront charge, kept when the trial is canceled")
    func paidTrialUpfront() {
        var s = Self.paidTrial()
        #expect(s.subscription("sub_1")?.upfrontPaid == 199)
        #expect(s.subscription("sub_1")?.status == .trialing)
        s.add("customer.subscription.deleted", day(3), WebFacts.subscription("sub_1", status: "canceled", created: day(0), periodEnd: day(7),
                                                                           trialEnd: day(7), canceledAt: day(3), endedAt: day(3), deleted: true))
        let sub = s.subscription("sub_1")
        #expect(sub?.status == .ended)
        #expect(sub?.upfrontPaid == 199)
        #expect(sub?.revokedAt == nil)
        // Only a refund says otherwise.
        s.add("charge.refunded", day(4), WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: "in_1", amount: 199, refunded: 199))
        #expect(s.subscription("sub_1")?.revokedAt == day(4))
    }

    @Test("W6: the first invoice of a subscription with no trial, or a free trial's, is no upfront charge")
    func noUpfront() {
        #expect(Self.bought().subscription("sub_1")?.upfrontPaid == nil)
        #expect(Self.freeTrial().subscription("sub_1")?.upfrontPaid == nil)
        var renewed = Self.freeTrial()
        Self.convert(&renewed)
        #expect(renewed.subscription("sub_1")?.upfrontPaid == nil, "the conversion's invoice is a renewal")
    }

    @Test("W6: a first invoice paid before the merchant granted a trial is no upfront charge")
    func trialGrantedLater() {
        var s = Self.bought()
        // On day 10 the merchant grants a trial until day 40 (Stripe: trial_end set on an
        // active subscription, which becomes trialing with a new period).
        s.add("customer.subscription.updated", day(10),
              WebFacts.subscription("sub_1", status: "trialing", created: day(0), periodEnd: day(40), trialStart: day(10), trialEnd: day(40)))
        let sub = s.subscription("sub_1")
        #expect(sub?.status == .trialing)
        #expect(sub?.trialEnd == day(40))
        // Failed before: any paid subscription_create invoice of a subscription with a trial
        // counted, paid during the trial or not.
        #expect(sub?.upfrontPaid == nil, "in_1 was paid on day 0, before the trial")
    }

    // MARK: - W7 Auth-hold trial

    @Test("W7: the hold is placed when its amount became capturable, and captured on conversion")
    func holdCaptured() {
        var s = Self.freeTrial()
        s.add("payment_intent.amount_capturable_updated", day(0, 5), WebFacts.hold("pi_h", .placed, subscription: "sub_1"))
        #expect(s.subscription("sub_1")?.hold == .placed)
        Self.convert(&s)
        s.add("payment_intent.succeeded", day(14, 30), WebFacts.hold("pi_h", .captured, subscription: "sub_1"))
        let sub = s.subscription("sub_1")
        #expect(sub?.hold == .captured)
        #expect(sub?.status == .active)
        // Delivered before the hold was placed, the capture still wins.
        #expect(WebHoldings.fold(s.events.reversed()).subscriptions.first?.hold == .captured)
    }

    @Test("W7: the hold is released when the trial is canceled")
    func holdReleased() {
        var s = Self.freeTrial()
        s.add("payment_intent.amount_capturable_updated", day(0, 5), WebFacts.hold("pi_h", .placed, subscription: "sub_1"))
        s.add("customer.subscription.deleted", day(6), WebFacts.subscription("sub_1", status: "canceled", created: day(0), periodEnd: day(14),
                                                                           trialEnd: day(14), canceledAt: day(6), endedAt: day(6), deleted: true))
        s.add("payment_intent.canceled", day(6, 1), WebFacts.hold("pi_h", .released, subscription: "sub_1"))
        let sub = s.subscription("sub_1")
        #expect(sub?.hold == .released)
        #expect(sub?.isHeld(at: day(6, 1)) == false)
    }

    @Test("W7: a hold that expires before the trial ends keeps the trial; conversion then rests on the first invoice")
    func holdExpires() {
        var s = Self.freeTrial()
        s.add("payment_intent.amount_capturable_updated", day(0, 5), WebFacts.hold("pi_h", .placed, subscription: "sub_1"))
        s.add("payment_intent.canceled", day(7), WebFacts.hold("pi_h", .expired, subscription: "sub_1"))
        let trial = s.subscription("sub_1")
        #expect(trial?.hold == .expired)
        #expect(trial?.status == .trialing)
        #expect(trial?.inTrial(at: day(10)) == true)
        #expect(trial?.isHeld(at: day(14, -1)) == true)
        #expect(trial?.isHeld(at: day(14)) == false)
        Self.convert(&s)
        let converted = s.subscription("sub_1")
        #expect(converted?.status == .active)
        #expect(converted?.hold == .expired)
        #expect(converted?.isHeld(at: day(44, -1)) == true)
    }

    @Test("W7: a hold naming no subscription is the trial's of its customer and product; an automatic payment intent is no hold")
    func holdOfCustomerAndProduct() {
        var s = Self.freeTrial()
        s.add("customer.subscription.created", day(1), WebFacts.subscription("sub_2", status: "active", product: "pro", created: day(1), periodEnd: day(31)))
        s.add("invoice.paid", day(1), WebFacts.invoice("in_9", subscription: "sub_2", paymentIntent: "pi_9", paid: true, amount: 999,
                                                       reason: "subscription_create"))
        s.add("payment_intent.succeeded", day(1), WebFacts.payment("pi_9", amount: 999))
        s.add("payment_intent.amount_capturable_updated", day(0, 5), WebFacts.hold("pi_h", .placed, subscription: nil, product: "monthly"))
        #expect(s.subscription("sub_1")?.hold == .placed)
        #expect(s.subscription("sub_2")?.hold == nil)
        // Another customer's hold for the same product is not sub_1's.
        var other = Self.freeTrial()
        other.add("payment_intent.amount_capturable_updated", day(0, 5), WebFacts.hold("pi_h", .placed, subscription: nil, customer: "cus_2"))
        #expect(other.subscription("sub_1")?.hold == nil)
    }
}
