import LedgerJSON

extension StripeScenario {
    /// How an auth-hold trial ends.
    public enum AuthHoldOutcome: Sendable, Equatable {
        /// The trial converts: the subscription turns active and the hold is captured to pay
        /// the first period's invoice.
        case converts
        /// The customer cancels during the trial: the subscription is set to cancel at the
        /// trial's end, the hold is released (`requested_by_customer`), and the
        /// subscription is deleted when the trial ends.
        case canceledByCustomer
        /// The authorization expires before the trial ends (`holdDays` after it was placed):
        /// Stripe cancels the intent on its own (`automatic`); the subscription goes on
        /// trialing, and what follows is the caller's next step.
        case holdExpired
    }

    /// A free trial that converts: checkout completed with nothing to pay, the subscription
    /// created `trialing`, its first invoice paid 0 (`subscription_create`); at the trial's
    /// end the subscription updated `active` for a new period and its invoice paid in full
    /// (`subscription_cycle`).
    public mutating func freeTrialThatConverts(trialDays: Int64 = 7) -> [StripeEventDraft] {
        var events = startTrial(trialDays: trialDays, upfront: 0)
        advanceToPeriodEnd()
        events.append(startNextPeriod())
        events.append(payInvoice(amount: amount, billingReason: "subscription_cycle"))
        return events
    }

    /// A paid trial: as the free trial, but checkout and the first invoice take
    /// `upfrontAmount` (nonzero) at once.
    public mutating func paidTrial(trialDays: Int64 = 7, upfrontAmount: Int64) -> [StripeEventDraft] {
        precondition(upfrontAmount > 0, "a paid trial takes a nonzero amount up front")
        var events = startTrial(trialDays: trialDays, upfront: upfrontAmount)
        advanceToPeriodEnd()
        events.append(startNextPeriod())
        events.append(payInvoice(amount: amount, billingReason: "subscription_cycle"))
        return events
    }

    /// An auth-hold trial: a free trial whose card is authorized for the first period's
    /// price at the start (a manual-capture payment intent, `metadata.subscription_id`),
    /// then `outcome`. `holdDays`: how long the authorization lasts (Stripe's card holds
    /// expire after about seven days).
    public mutating func authHoldTrial(trialDays: Int64 = 14, holdDays: Int64 = 7, outcome: AuthHoldOutcome) -> [StripeEventDraft] {
        var events = startTrial(trialDays: trialDays, upfront: 0)
        events.append(placeHold(amount: amount))
        switch outcome {
        case .converts:
            advanceToPeriodEnd()
            events.append(startNextPeriod())
            events.append(captureHold())
            events.append(payInvoice(amount: amount, billingReason: "subscription_cycle", paymentIntent: hold?["id"]?.stringValue))
        case .canceledByCustomer:
            advance(days: max(1, min(2, trialDays - 1)))
            events.append(cancelAtPeriodEnd())
            events.append(cancelHold(reason: "requested_by_customer"))
            advanceToPeriodEnd()
            events.append(deleteSubscription())
        case .holdExpired:
            precondition(holdDays < trialDays, "the hold expires before the trial ends only when it is shorter")
            advance(days: holdDays)
            events.append(cancelHold(reason: "automatic"))
        }
        return events
    }

    /// Checkout, the subscription created trialing for `trialDays`, its first invoice paid
    /// `upfront` (0: a free trial).
    mutating func startTrial(trialDays: Int64, upfront: Int64) -> [StripeEventDraft] {
        [
            completeCheckout(mode: .subscription, paymentStatus: upfront == 0 ? "no_payment_required" : "paid", amountTotal: upfront),
            createSubscription(trialDays: trialDays),
            payInvoice(amount: upfront, billingReason: "subscription_create"),
        ]
    }

    /// Moves the clock to the subscription's current period's end (a trial's end, a renewal).
    public mutating func advanceToPeriodEnd() {
        if let end = subscription?["current_period_end"]?.int64Value, end > now { now = end }
    }
}
