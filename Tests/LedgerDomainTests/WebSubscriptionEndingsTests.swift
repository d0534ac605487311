import LedgerDomain
import Testing
import TestSupport

/// `days` (and `seconds`) after 2026-01-01T00:00:00Z.
private func day(_ days: Int64, _ seconds: Int64 = 0) -> Timestamp { WebFacts.day(days, seconds) }

/// W8–W11 (docs/catalog.md, "Web subscriptions"): how long a running subscription is held,
/// through dunning, cancellation, refunds and disputes, on short histories written out event
/// by event (`WebHoldings.fold`).
@Suite("Web subscriptions: dunning, ending, refunds and disputes (W8–W11)", .bounded)
struct WebSubscriptionEndingsTests {
    /// sub_1 of cus_1 (monthly), bought on day 0 and renewed on day 30 until day 60: in_1
    /// paid through pi_1 (charge ch_1), in_2 through pi_2 (charge ch_2).
    static func renewed() -> StripeStory {
        var s = StripeStory()
        s.add("customer.subscription.created", day(0), WebFacts.subscription("sub_1", status: "incomplete", created: day(0), periodEnd: day(30)))
        s.add("invoice.paid", day(0), WebFacts.invoice("in_1", subscription: "sub_1", paymentIntent: "pi_1", paid: true, amount: 999,
                                                       reason: "subscription_create"))
        s.add("customer.subscription.updated", day(0), WebFacts.subscription("sub_1", status: "active", created: day(0), periodEnd: day(30)))
        s.add("checkout.session.completed", day(0, 2), user: "u1", WebFacts.checkout("cs_1", subscription: "sub_1", product: "monthly", amount: 999))
        s.add("invoice.paid", day(30), WebFacts.invoice("in_2", subscription: "sub_1", paymentIntent: "pi_2", paid: true, amount: 999,
                                                        reason: "subscription_cycle"))
        s.add("customer.subscription.updated", day(30), WebFacts.subscription("sub_1", status: "active", created: day(0), periodEnd: day(60)))
        return s
    }

    static func update(_ s: inout StripeStory, _ at: Timestamp, _ status: String, periodEnd: Timestamp = day(60), cancelAtPeriodEnd: Bool = false,
                       canceledAt: Timestamp? = nil, endedAt: Timestamp? = nil, deleted: Bool = false) {
        s.add(deleted ? "customer.subscription.deleted" : "customer.subscription.updated", at,
              WebFacts.subscription("sub_1", status: status, created: day(0), periodEnd: periodEnd, cancelAtPeriodEnd: cancelAtPeriodEnd,
                                    canceledAt: canceledAt, endedAt: endedAt, deleted: deleted))
    }

    // MARK: - W8 Active and dunning

    @Test("W8: active is held until current_period_end")
    func active() {
        let sub = Self.renewed().subscription("sub_1")
        #expect(sub?.status == .active)
        #expect(sub?.accessEndsAt == day(60))
        #expect(sub?.isHeld(at: day(60, -1)) == true)
        #expect(sub?.isHeld(at: day(60)) == false)
        #expect(sub?.paymentFailed == false)
    }

    @Test("W8: past_due is held until the period's end with payment_failed shown; paid again, it is active")
    func pastDue() {
        var s = Self.renewed()
        Self.update(&s, day(60), "past_due", periodEnd: day(90))
        s.add("invoice.payment_failed", day(60), WebFacts.invoice("in_3", subscription: "sub_1", paymentIntent: "pi_3", paid: false, amount: 999,
                                                                  reason: "subscription_cycle", nextAttempt: day(63)))
        let dunning = s.subscription("sub_1")
        #expect(dunning?.status == .pastDue)
        #expect(dunning?.paymentFailed == true)
        #expect(dunning?.accessEndsAt == day(90))
        #expect(dunning?.isHeld(at: day(89)) == true)
        #expect(dunning?.isHeld(at: day(90)) == false)
        #expect(dunning?.willRenew == true)
        s.add("invoice.paid", day(63), WebFacts.invoice("in_3", subscription: "sub_1", paymentIntent: "pi_3", paid: true, amount: 999,
                                                        reason: "subscription_cycle", attempt: 2))
        Self.update(&s, day(63, 1), "active", periodEnd: day(90))
        let recovered = s.subscription("sub_1")
        #expect(recovered?.status == .active)
        #expect(recovered?.paymentFailed == false)
        #expect(recovered?.isHeld(at: day(89)) == true)
    }

    @Test("W8: unpaid and paused are not held, even before the period's end")
    func unpaidAndPaused() {
        for status in ["unpaid", "paused"] {
            var s = Self.renewed()
            Self.update(&s, day(60), "past_due", periodEnd: day(90))
            Self.update(&s, day(67), status, periodEnd: day(90))
            let sub = s.subscription("sub_1")
            #expect(sub?.status == (status == "unpaid" ? .unpaid : .paused))
            #expect(sub?.isHeld(at: day(67)) == false, "\(status)")
            #expect(sub?.isHeld(at: day(80)) == false, "\(status)")
        }
    }

    // MARK: - W9 Ending

    @Test("W9: cancel_at_period_end is held until the period's end, not renewing; then ended at ended_at")
    func cancelAtPeriodEnd() {
        var s = Self.renewed()
        Self.update(&s, day(45), "active", cancelAtPeriodEnd: true, canceledAt: day(45))
        let canceling = s.subscription("sub_1")
        #expect(canceling?.status == .active)
        #expect(canceling?.willRenew == false)
        #expect(canceling?.cancelAtPeriodEnd == true)
        #expect(canceling?.accessEndsAt == day(60))
        #expect(canceling?.isHeld(at: day(60, -1)) == true)
        Self.update(&s, day(60), "canceled", cancelAtPeriodEnd: true, canceledAt: day(45), endedAt: day(60), deleted: true)
        let ended = s.subscription("sub_1")
        #expect(ended?.status == .ended)
        #expect(ended?.accessEndsAt == day(60))
        #expect(ended?.willRenew == false)
        #expect(ended?.isHeld(at: day(60)) == false)
    }

    @Test("W9: canceled or deleted ends at ended_at, else canceled_at, else the event's time")
    func endedAt() {
        let cases: [(canceledAt: Timestamp?, endedAt: Timestamp?, deleted: Bool, ends: Timestamp)] = [
            (day(40), day(41), true, day(41)), (day(40), nil, true, day(40)), (nil, nil, true, day(42)),
            (day(40), day(41), false, day(41)), (nil, nil, false, day(42)),
        ]
        for c in cases {
            var s = Self.renewed()
            Self.update(&s, day(42), "canceled", canceledAt: c.canceledAt, endedAt: c.endedAt, deleted: c.deleted)
            let sub = s.subscription("sub_1")
            #expect(sub?.status == .ended, "\(c)")
            #expect(sub?.accessEndsAt == c.ends, "\(c)")
            #expect(sub?.isHeld(at: day(42)) == false, "\(c)")
        }
    }

    // MARK: - W10 Refunded

    @Test("W10: a full refund of the subscription's charge ends access when the refund was made; a partial one changes nothing")
    func refund() {
        var partial = Self.renewed()
        partial.add("charge.refunded", day(40), WebFacts.refund("ch_2", paymentIntent: "pi_2", invoice: "in_2", amount: 999, refunded: 500))
        let kept = partial.subscription("sub_1")
        #expect(kept?.revokedAt == nil)
        #expect(kept?.status == .active)
        #expect(kept?.isHeld(at: day(41)) == true)

        var full = Self.renewed()
        full.add("charge.refunded", day(40), WebFacts.refund("ch_2", paymentIntent: nil, invoice: "in_2", amount: 999, refunded: 999))
        #expect(full.holdings(asOf: day(40, -1)).subscriptions.first?.isHeld(at: day(40, -1)) == true, "held until the refund")
        let refunded = full.subscription("sub_1")
        #expect(refunded?.revokedAt == day(40))
        #expect(refunded?.status == .refunded)
        #expect(refunded?.isHeld(at: day(40)) == false)
        #expect(refunded?.isHeld(at: day(50)) == false)
        // A refund of the first month's charge, delivered late, ends access all the same.
        var old = Self.renewed()
        old.add("charge.refunded", day(45), WebFacts.refund("ch_1", paymentIntent: "pi_1", invoice: nil, amount: 999, refunded: 999))
        #expect(old.subscription("sub_1")?.revokedAt == day(45))
    }

    @Test("W10: a refund reaches the subscription through its invoice or its payment intent, never through the customer alone")
    func refundOfAnotherSubscription() {
        var s = Self.renewed()
        s.add("customer.subscription.created", day(5), WebFacts.subscription("sub_2", status: "active", product: "pro", created: day(5), periodEnd: day(35)))
        s.add("invoice.paid", day(5), WebFacts.invoice("in_9", subscription: "sub_2", paymentIntent: "pi_9", paid: true, amount: 999,
                                                       reason: "subscription_create"))
        s.add("charge.refunded", day(6), WebFacts.refund("ch_9", paymentIntent: "pi_9", invoice: nil, amount: 999, refunded: 999))
        s.add("charge.refunded", day(7), WebFacts.refund("ch_x", paymentIntent: "pi_x", invoice: nil, amount: 999, refunded: 999))
        #expect(s.subscription("sub_2")?.revokedAt == day(6))
        #expect(s.subscription("sub_1")?.revokedAt == nil)
        #expect(s.subscription("sub_1")?.isHeld(at: day(40)) == true)
    }

    @Test("W10: a one-time purchase refunded in full is no longer held from the refund; a partial refund leaves it")
    func refundedPurchase() {
        var s = StripeStory()
        s.add("checkout.session.completed", day(3), user: "u1",
              WebFacts.checkout("cs_9", mode: "payment", subscription: nil, paymentIntent: "pi_9", product: "lifetime", amount: 4_999))
        s.add("charge.refunded", day(4), WebFacts.refund("ch_9", paymentIntent: "pi_9", invoice: nil, amount: 4_999, refunded: 1_000))
        #expect(s.holdings.payments.first?.isHeld(at: day(5)) == true)
        s.add("charge.refunded", day(6), WebFacts.refund("ch_9", paymentIntent: "pi_9", invoice: nil, amount: 4_999, refunded: 4_999))
        let payment = s.holdings.payments.first
        #expect(payment?.revokedAt == day(6))
        #expect(payment?.isHeld(at: day(6)) == false)
        #expect(payment?.userID == "u1")
    }

    // MARK: - W11 Disputed

    @Test("W11: an open dispute keeps access and is shown; one closed lost ends access when it closed; one closed won leaves it")
    func disputes() {
        var s = Self.renewed()
        s.add("charge.dispute.created", day(35), WebFacts.dispute("dp_1", charge: "ch_2", paymentIntent: "pi_2", amount: 999,
                                                                  status: "needs_response", closed: false))
        let open = s.subscription("sub_1")
        #expect(open?.disputed == true)
        #expect(open?.status == .active)
        #expect(open?.isHeld(at: day(40)) == true)

        var won = s
        won.add("charge.dispute.closed", day(50), WebFacts.dispute("dp_1", charge: "ch_2", paymentIntent: "pi_2", amount: 999, status: "won", closed: true))
        let kept = won.subscription("sub_1")
        #expect(kept?.disputed == false)
        #expect(kept?.revokedAt == nil)
        #expect(kept?.status == .active)
        #expect(kept?.isHeld(at: day(55)) == true)

        var lost = s
        lost.add("charge.dispute.closed", day(50), WebFacts.dispute("dp_1", charge: "ch_2", paymentIntent: "pi_2", amount: 999, status: "lost", closed: true))
        #expect(lost.holdings(asOf: day(50, -1)).subscriptions.first?.isHeld(at: day(50, -1)) == true, "held while the dispute was open")
        let taken = lost.subscription("sub_1")
        #expect(taken?.disputed == false)
        #expect(taken?.revokedAt == day(50))
        #expect(taken?.status == .disputeLost)
        #expect(taken?.isHeld(at: day(50)) == false)
        // Closed and delivered before it was opened: the same.
        #expect(WebHoldings.fold(lost.events.reversed()).subscriptions.first?.revokedAt == day(50))
    }

    @Test("W11: a dispute updated after it closed (the merchant edited its metadata) stays closed as it closed")
    func disputeUpdatedAfterClosing() {
        var s = Self.renewed()
        s.add("charge.dispute.created", day(35), WebFacts.dispute("dp_1", charge: "ch_2", paymentIntent: "pi_2", amount: 999,
                                                                  status: "needs_response", closed: false))
        s.add("charge.dispute.closed", day(50), WebFacts.dispute("dp_1", charge: "ch_2", paymentIntent: "pi_2", amount: 999, status: "lost", closed: true))
        s.add("charge.dispute.updated", day(52), WebFacts.dispute("dp_1", charge: "ch_2", paymentIntent: "pi_2", amount: 999, status: "lost", closed: false))
        let sub = s.subscription("sub_1")
        // Failed before: the dispute's latest fact decides it, and an `updated` one reads as open.
        #expect(sub?.revokedAt == day(50))
        #expect(sub?.disputed == false)
        #expect(sub?.isHeld(at: day(55)) == false)
    }
}
