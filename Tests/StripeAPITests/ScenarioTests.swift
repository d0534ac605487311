import LedgerJSON
import Stripe
import StripeAPI
import StripeStandIn
import Testing
import TestSupport

@Suite("Scenarios: realistic Stripe objects and events, in order, on the scenario's clock", .bounded)
struct ScenarioTests {
    static let start: Int64 = 1_767_225_600
    static let day: Int64 = 86_400

    func scenario(amount: Int64 = 999) -> StripeScenario {
        StripeScenario(start: Self.start, userID: "user-42", productID: "plus_monthly", amount: amount)
    }

    func object(_ draft: StripeEventDraft) -> JSONValue { draft.object }

    /// Every draft is an event the webhook verifier's reader accepts once recorded, and
    /// none is created before the one it follows.
    func checkRecordable(_ drafts: [StripeEventDraft]) throws {
        let standIn = try StripeStandIn()
        defer { standIn.stop() }
        for event in standIn.record(drafts) {
            let read = try StripeEvent(body: event.body)
            #expect(read.id == event.id && read.type == event.type && read.object == event.json["data"]?["object"])
        }
        #expect(zip(drafts, drafts.dropFirst()).allSatisfy { $0.created <= $1.created })
    }

    @Test("a free trial that converts")
    func freeTrial() throws {
        var s = scenario()
        let events = s.freeTrialThatConverts(trialDays: 7)
        #expect(events.map(\.type) == ["checkout.session.completed", "customer.subscription.created", "invoice.paid",
                                       "customer.subscription.updated", "invoice.paid"])
        let checkout = events[0].object
        #expect(checkout["id"]?.stringValue?.hasPrefix("cs_test_") == true && checkout["object"] == "checkout.session")
        #expect(checkout["mode"] == "subscription" && checkout["client_reference_id"] == "user-42" && checkout["customer"] == .string(s.customerID))
        #expect(checkout["subscription"] == .string(s.subscriptionID) && checkout["payment_intent"] == .null)
        #expect(checkout["payment_status"] == "no_payment_required" && checkout["status"] == "complete" && checkout["amount_total"] == 0)
        #expect(checkout["currency"] == "usd" && checkout["metadata"] == ["user_id": "user-42", "product_id": "plus_monthly"])
        let created = events[1].object
        #expect(s.subscriptionID.hasPrefix("sub_") && s.customerID.hasPrefix("cus_"))
        #expect(created["status"] == "trialing" && created["trial_start"] == .integer(Self.start)
                && created["trial_end"] == .integer(Self.start + 7 * Self.day))
        #expect(created["current_period_end"] == created["trial_end"] && created["cancel_at_period_end"] == false)
        let item = try #require(created["items"]?["data"]?[0])
        #expect(item["id"]?.stringValue?.hasPrefix("si_") == true && item["price"]?["lookup_key"] == "plus_monthly")
        #expect(item["price"]?["metadata"]?["product_id"] == "plus_monthly" && item["price"]?["product"]?.stringValue?.hasPrefix("prod_") == true)
        #expect(item["current_period_end"] == created["current_period_end"])
        let first = events[2].object
        #expect(first["id"]?.stringValue?.hasPrefix("in_") == true && first["amount_paid"] == 0 && first["paid"] == true)
        #expect(first["billing_reason"] == "subscription_create" && first["status"] == "paid" && first["subscription"] == .string(s.subscriptionID))
        let converted = events[3]
        #expect(converted.created == Self.start + 7 * Self.day && converted.object["status"] == "active")
        #expect(converted.object["current_period_start"] == .integer(converted.created)
                && converted.object["current_period_end"] == .integer(converted.created + 30 * Self.day))
        #expect(converted.previousAttributes?["status"] == "trialing")
        #expect(converted.previousAttributes?["current_period_end"] == .integer(Self.start + 7 * Self.day))
        #expect(converted.object["items"]?["data"]?[0]?["current_period_end"] == converted.object["current_period_end"])
        let cycle = events[4].object
        #expect(cycle["billing_reason"] == "subscription_cycle" && cycle["amount_paid"] == 999 && cycle["amount_due"] == 999)
        #expect(cycle["payment_intent"]?.stringValue?.hasPrefix("pi_") == true && cycle["period_start"] == converted.object["current_period_start"])
        #expect(s.subscription?["latest_invoice"] == cycle["id"])
        try checkRecordable(events)
    }

    @Test("a paid trial takes its upfront amount at checkout and on the first invoice")
    func paidTrial() throws {
        var s = scenario()
        let events = s.paidTrial(trialDays: 3, upfrontAmount: 199)
        #expect(events.map(\.type) == ["checkout.session.completed", "customer.subscription.created", "invoice.paid",
                                       "customer.subscription.updated", "invoice.paid"])
        #expect(events[0].object["payment_status"] == "paid" && events[0].object["amount_total"] == 199)
        #expect(events[2].object["amount_paid"] == 199 && events[2].object["billing_reason"] == "subscription_create")
        #expect(events[3].created == Self.start + 3 * Self.day && events[4].object["amount_paid"] == 999)
        try checkRecordable(events)
    }

    @Test("an auth-hold trial that converts: the hold captured pays the first period")
    func authHoldConverts() throws {
        var s = scenario()
        let events = s.authHoldTrial(trialDays: 14, outcome: .converts)
        #expect(events.map(\.type) == ["checkout.session.completed", "customer.subscription.created", "invoice.paid",
                                       "payment_intent.amount_capturable_updated", "customer.subscription.updated",
                                       "payment_intent.succeeded", "invoice.paid"])
        let hold = events[3].object
        #expect(hold["id"]?.stringValue?.hasPrefix("pi_") == true && hold["capture_method"] == "manual")
        #expect(hold["status"] == "requires_capture" && hold["amount_capturable"] == 999 && hold["amount_received"] == 0)
        #expect(hold["metadata"] == ["user_id": "user-42", "product_id": "plus_monthly", "subscription_id": .string(s.subscriptionID)])
        let captured = events[5].object
        #expect(captured["id"] == hold["id"] && captured["status"] == "succeeded" && captured["amount_received"] == 999
                && captured["amount_capturable"] == 0)
        #expect(events[5].created == Self.start + 14 * Self.day)
        #expect(events[6].object["payment_intent"] == hold["id"] && events[6].object["charge"] == hold["latest_charge"])
        try checkRecordable(events)
    }

    @Test("an auth-hold trial canceled by the customer: cancel at period end, the hold released, then deleted")
    func authHoldCanceled() throws {
        var s = scenario()
        let events = s.authHoldTrial(trialDays: 14, outcome: .canceledByCustomer)
        #expect(events.map(\.type).suffix(3) == ["customer.subscription.updated", "payment_intent.canceled", "customer.subscription.deleted"])
        let update = events[4]
        #expect(update.object["cancel_at_period_end"] == true && update.object["cancel_at"] == .integer(Self.start + 14 * Self.day))
        #expect(update.object["canceled_at"] == .integer(update.created) && update.previousAttributes?["cancel_at_period_end"] == false)
        #expect(update.requestID?.hasPrefix("req_") == true && update.object["status"] == "trialing")
        #expect(events[5].object["cancellation_reason"] == "requested_by_customer" && events[5].object["status"] == "canceled")
        let deleted = events[6]
        #expect(deleted.created == Self.start + 14 * Self.day && deleted.object["status"] == "canceled")
        #expect(deleted.object["ended_at"] == .integer(deleted.created) && deleted.object["canceled_at"] == update.object["canceled_at"])
        try checkRecordable(events)
    }

    @Test("an auth-hold trial whose hold expires first: canceled automatic, no request, before the trial ends")
    func authHoldExpired() throws {
        var s = scenario()
        let events = s.authHoldTrial(trialDays: 14, holdDays: 7, outcome: .holdExpired)
        let expired = try #require(events.last)
        #expect(expired.type == "payment_intent.canceled" && expired.object["cancellation_reason"] == "automatic")
        #expect(expired.requestID == nil && expired.created == Self.start + 7 * Self.day)
        #expect(s.subscription?["status"] == "trialing")
        try checkRecordable(events)
    }

    @Test("a renewal that fails, then recovers")
    func renewalRecovers() throws {
        var s = scenario()
        let events = s.renewalFails(then: .recovers, retryDays: 3)
        #expect(events.map(\.type) == ["checkout.session.completed", "customer.subscription.created", "invoice.paid",
                                       "customer.subscription.updated", "invoice.payment_failed", "customer.subscription.updated",
                                       "invoice.paid", "customer.subscription.updated"])
        let failed = events[4].object
        #expect(failed["status"] == "open" && failed["paid"] == false && failed["attempt_count"] == 1)
        #expect(failed["next_payment_attempt"] == .integer(events[4].created + 3 * Self.day) && failed["billing_reason"] == "subscription_cycle")
        #expect(events[5].object["status"] == "past_due" && events[5].previousAttributes?["status"] == "active")
        let paid = events[6].object
        #expect(paid["id"] == failed["id"] && paid["attempt_count"] == 2 && paid["paid"] == true && paid["next_payment_attempt"] == .null)
        #expect(events[7].object["status"] == "active" && events[7].previousAttributes?["status"] == "past_due")
        try checkRecordable(events)
    }

    @Test("a renewal that fails, then ends")
    func renewalEnds() throws {
        var s = scenario()
        let events = s.renewalFails(then: .ends)
        #expect(events.map(\.type).suffix(3) == ["customer.subscription.updated", "invoice.payment_failed", "customer.subscription.deleted"])
        #expect(events[6].object["attempt_count"] == 2 && events[6].object["next_payment_attempt"] == .null)
        #expect(events[7].object["status"] == "canceled" && events[7].object["ended_at"] == .integer(events[7].created))
        try checkRecordable(events)
    }

    @Test("canceled at period end")
    func canceledAtPeriodEnd() throws {
        var s = scenario()
        let events = s.canceledAtPeriodEnd(afterDays: 10)
        #expect(events.map(\.type).suffix(2) == ["customer.subscription.updated", "customer.subscription.deleted"])
        #expect(events[3].object["cancel_at_period_end"] == true && events[3].object["status"] == "active")
        #expect(events[3].created == Self.start + 10 * Self.day && events[4].created == Self.start + 30 * Self.day)
        try checkRecordable(events)
    }

    @Test("a one-time payment, a refund, a dispute won and one lost")
    func payments() throws {
        var s = scenario(amount: 4_900)
        let payment = s.oneTimePayment()
        #expect(payment.map(\.type) == ["checkout.session.completed", "payment_intent.succeeded"])
        #expect(payment[0].object["mode"] == "payment" && payment[0].object["subscription"] == .null)
        #expect(payment[0].object["payment_intent"] == payment[1].object["id"] && payment[1].object["capture_method"] == "automatic")
        #expect(payment[1].object["amount_received"] == 4_900 && payment[1].object["status"] == "succeeded")
        try checkRecordable(payment)

        var r = scenario(amount: 4_900)
        let refund = r.refundedPayment()
        let charge = refund[2].object
        #expect(refund[2].type == "charge.refunded" && charge["id"]?.stringValue?.hasPrefix("ch_") == true)
        #expect(charge["amount_refunded"] == 4_900 && charge["refunded"] == true && charge["payment_intent"] == refund[1].object["id"])
        #expect(charge["invoice"] == .null && refund[2].previousAttributes?["amount_refunded"] == 0)
        try checkRecordable(refund)

        for won in [true, false] {
            var d = scenario(amount: 4_900)
            let dispute = d.disputedPayment(won: won)
            #expect(dispute.map(\.type).suffix(2) == ["charge.dispute.created", "charge.dispute.closed"])
            let opened = dispute[2].object
            #expect(opened["id"]?.stringValue?.hasPrefix("dp_") == true && opened["status"] == "needs_response")
            #expect(opened["charge"] == .string(dispute[1].object["latest_charge"]?.stringValue ?? "") && opened["amount"] == 4_900)
            #expect(opened["payment_intent"] == dispute[1].object["id"] && opened["reason"] == "fraudulent")
            #expect(dispute[3].object["status"] == .string(won ? "won" : "lost") && dispute[3].object["id"] == opened["id"])
            try checkRecordable(dispute)
        }
    }

    @Test("a subscription's payment refunded: the charge names its invoice")
    func subscriptionRefund() throws {
        var s = scenario()
        _ = s.startPaidSubscription()
        let refund = s.refundLastCharge()
        #expect(refund.object["invoice"] == s.subscription?["latest_invoice"] && refund.object["refunded"] == true)
    }

    @Test("a whole scenario recorded in the stand-in is listed back newest first, every event once")
    func listedBack() throws {
        let fixture = try StripeFixture()
        var s = scenario()
        let recorded = fixture.standIn.record(s.renewalFails(then: .recovers))
        let listed = try fixture.client().events(since: Self.start, maximumCount: 100, pageSize: 3)
        #expect(listed.isComplete && listed.events.count == recorded.count)
        #expect(Set(listed.events.map(\.id)) == Set(recorded.map(\.id)))
        #expect(zip(listed.events, listed.events.dropFirst()).allSatisfy { $0.created >= $1.created })
        for event in listed.events {
            #expect(try StripeEvent(body: event.bytes).id == event.id)
        }
    }
}
