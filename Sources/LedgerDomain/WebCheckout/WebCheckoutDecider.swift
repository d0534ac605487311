/// Decides what the ledger records of the payment processor's events for an app's web
/// checkout (docs/web-checkout.md). Pure: the event, typed, and the app's state come in.
public enum WebCheckoutDecider {
    /// The stream an app's Stripe events are recorded on.
    public static func stream(_ appID: String) -> String { CatalogDecider.stream(appID) + "-stripe" }

    /// The idempotency key of one Stripe event of an app: its `id`.
    public static func key(app appID: String, event eventID: String) -> String {
        "stripe-event:\(appID):\(ExternalID.key(eventID))"
    }

    /// The largest amount a fact may carry (in the currency's smallest unit): Stripe's own
    /// ceiling is 99,999,999; anything past this is not an amount.
    public static let maximumAmount: Int64 = 1_000_000_000_000

    /// Records `event` for `app`, once per event id. An app whose Stripe account is
    /// recorded refuses an event of the other mode (`stripe_mode_mismatch`) or of another
    /// connected account (`stripe_account_mismatch`): a misconfigured endpoint, which
    /// nothing should fold into what users hold.
    public static func record(_ event: StripeEventRecorded, app: AppState) throws(Refusal) -> Decision {
        precondition(event.appID == app.appID, "the event is recorded for the app it was decided for")
        if let stripe = app.stripe {
            guard event.livemode == (stripe.mode == .live) else {
                throw Refusal(.stripeModeMismatch, "app \(app.appID) runs on Stripe in \(stripe.mode.rawValue) mode; event \(event.eventID) is a \(event.livemode ? "live" : "test")-mode event")
            }
            if let account = event.account, account != stripe.accountID {
                throw Refusal(.stripeAccountMismatch, "app \(app.appID) runs on Stripe account \(stripe.accountID); event \(event.eventID) is of account \(account)")
            }
        }
        try check(event.fact)
        return Decision(PendingEvent(event, on: stream(app.appID), occurredAt: event.created,
                                     idempotencyKey: key(app: app.appID, event: event.eventID)))
    }

    /// What the folds rely on: amounts are amounts (never negative, never past the
    /// ceiling), and a refund never refunds more than its charge.
    static func check(_ fact: StripeFact) throws(Refusal) {
        var amounts: [(String, Int64)] = []
        switch fact {
        case .checkout(let c): amounts = [("amount_total", c.amountTotal ?? 0)]
        case .subscription, .seen: break
        case .invoice(let i): amounts = [("amount_paid", i.amountPaid), ("amount_due", i.amountDue)]
        case .paymentIntent(let p): amounts = [("amount", p.amount), ("amount_capturable", p.amountCapturable), ("amount_received", p.amountReceived)]
        case .refund(let r):
            amounts = [("amount", r.amount), ("amount_refunded", r.amountRefunded)]
            guard r.amountRefunded <= r.amount else {
                throw Refusal(.stripeEventInvalid, "charge \(r.chargeID) refunds \(r.amountRefunded), more than its amount \(r.amount)")
            }
        case .dispute(let d): amounts = [("amount", d.amount)]
        }
        if let (name, value) = amounts.first(where: { !(0...maximumAmount).contains($0.1) }) {
            throw Refusal(.stripeEventInvalid, "\(name) \(value) is not an amount (0 to \(maximumAmount) in the currency's smallest unit)")
        }
    }
}

extension Refusal.Code {
    /// A Stripe event of the other mode (test or live) than the app's account runs in.
    public static let stripeModeMismatch = Refusal.Code("stripe_mode_mismatch")
    /// A Stripe event of another connected account than the app's.
    public static let stripeAccountMismatch = Refusal.Code("stripe_account_mismatch")
    /// A Stripe event whose object breaks what the rules rely on.
    public static let stripeEventInvalid = Refusal.Code("stripe_event_invalid")
}
