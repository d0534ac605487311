import LedgerJSON

extension StripeScenario {
    /// How a failed renewal ends.
    public enum RenewalOutcome: Sendable, Equatable {
        /// The retry succeeds: the invoice is paid and the subscription is `active` again.
        case recovers
        /// The retry fails too and Stripe cancels the subscription.
        case ends
    }

    /// A paid subscription begins now: checkout paid, the subscription created `active`,
    /// its first invoice paid in full (`subscription_create`).
    public mutating func startPaidSubscription() -> [StripeEventDraft] {
        [
            completeCheckout(mode: .subscription, paymentStatus: "paid", amountTotal: amount),
            createSubscription(status: "active"),
            payInvoice(amount: amount, billingReason: "subscription_create"),
        ]
    }

    /// A paid subscription whose first renewal fails: at the period's end the subscription
    /// moves to its next period, the invoice's payment fails (`invoice.payment_failed`) and
    /// the subscription is `past_due`; `retryDays` later Stripe tries again, and `outcome`:
    /// the invoice paid and the subscription `active`, or the payment failed for good and
    /// the subscription deleted, `canceled`.
    public mutating func renewalFails(then outcome: RenewalOutcome, retryDays: Int64 = 3) -> [StripeEventDraft] {
        var events = startPaidSubscription()
        advanceToPeriodEnd()
        events.append(startNextPeriod())
        events.append(failInvoice(amount: amount, retryDays: retryDays))
        events.append(updateSubscription(["status": "past_due"]))
        advance(days: retryDays)
        switch outcome {
        case .recovers:
            events.append(payInvoice(amount: amount, billingReason: "subscription_cycle"))
            events.append(updateSubscription(["status": "active"]))
        case .ends:
            events.append(failInvoice(amount: amount, retryDays: nil))
            events.append(deleteSubscription())
        }
        return events
    }

    /// A paid subscription the customer cancels `afterDays` into its first period: updated
    /// with `cancel_at_period_end` true, then deleted, `canceled`, at the period's end.
    public mutating func canceledAtPeriodEnd(afterDays: Int64 = 10) -> [StripeEventDraft] {
        var events = startPaidSubscription()
        advance(days: afterDays)
        events.append(cancelAtPeriodEnd())
        advanceToPeriodEnd()
        events.append(deleteSubscription())
        return events
    }
}
