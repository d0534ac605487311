import LedgerJSON

extension StripeScenario {
    /// `invoice.paid`: the subscription's invoice for its current period paid `amount` now
    /// (0 for a free trial's first invoice). `billingReason`: `subscription_create`,
    /// `subscription_cycle` or `subscription_update`. An invoice that failed before
    /// (`failInvoice`) is the one paid, its `attempt_count` one more. A nonzero payment
    /// makes a charge (`lastCharge`); `paymentIntent` names the intent that paid it (a
    /// captured hold), a new one by default.
    public mutating func payInvoice(amount: Int64, billingReason: String, paymentIntent: String? = nil) -> StripeEventDraft {
        var invoice = openInvoice ?? newInvoice(amount: amount, billingReason: billingReason)
        let intent = amount == 0 ? nil : (paymentIntent ?? invoice["payment_intent"]?.stringValue ?? StripeID.make("pi_"))
        (invoice, _) = Self.updating(invoice, [
            "status": "paid", "paid": true, "amount_paid": .integer(amount), "amount_remaining": 0,
            "attempt_count": .integer((invoice["attempt_count"]?.int64Value ?? 0) + (amount == 0 ? 0 : 1)),
            "attempted": true, "next_payment_attempt": .null,
            "payment_intent": intent.map(JSONValue.string) ?? .null,
        ])
        openInvoice = nil
        if let intent {
            // A captured hold already made its charge: it is the invoice's now.
            if let made = lastCharge, made["payment_intent"]?.stringValue == intent {
                lastCharge = Self.updating(made, ["invoice": invoice["id"] ?? .null]).updated
            } else {
                lastCharge = charge(amount: amount, paymentIntent: intent, invoice: invoice["id"]?.stringValue)
            }
            invoice = Self.updating(invoice, ["charge": lastCharge?["id"] ?? .null]).updated
        }
        subscription = subscription.map { Self.updating($0, ["latest_invoice": invoice["id"] ?? .null]).updated }
        return draft("invoice.paid", invoice)
    }

    /// `invoice.payment_failed`: the charge for the current period's invoice was declined
    /// now; Stripe tries again in `retryDays` (`next_payment_attempt`), or never (nil).
    public mutating func failInvoice(amount: Int64, billingReason: String = "subscription_cycle",
                                     retryDays: Int64? = 3) -> StripeEventDraft {
        var invoice = openInvoice ?? newInvoice(amount: amount, billingReason: billingReason)
        (invoice, _) = Self.updating(invoice, [
            "status": "open", "paid": false, "attempted": true, "amount_paid": 0, "amount_remaining": .integer(amount),
            "attempt_count": .integer((invoice["attempt_count"]?.int64Value ?? 0) + 1),
            "next_payment_attempt": retryDays.map { .integer(now + $0 * 86_400) } ?? .null,
            "payment_intent": invoice["payment_intent"].flatMap { $0.isNull ? nil : $0 } ?? .string(StripeID.make("pi_")),
        ])
        openInvoice = invoice
        subscription = subscription.map { Self.updating($0, ["latest_invoice": invoice["id"] ?? .null]).updated }
        return draft("invoice.payment_failed", invoice)
    }

    /// A new draft invoice of the subscription for its current period.
    func newInvoice(amount: Int64, billingReason: String) -> JSONValue {
        let start = subscription?["current_period_start"]?.int64Value ?? now
        let end = subscription?["current_period_end"]?.int64Value ?? now
        let id = StripeID.make("in_")
        return [
            "id": .string(id), "object": "invoice", "customer": .string(customerID), "subscription": .string(subscriptionID),
            "payment_intent": .null, "charge": .null, "status": "draft", "paid": false, "attempted": false,
            "amount_due": .integer(amount), "amount_paid": 0, "amount_remaining": .integer(amount), "currency": .string(currency),
            "billing_reason": .string(billingReason), "attempt_count": 0, "next_payment_attempt": .null,
            "period_start": .integer(start), "period_end": .integer(end), "created": .integer(now), "livemode": false,
            "subscription_details": ["metadata": metadata],
            "lines": ["object": "list", "data": [[
                "id": .string(StripeID.make("il_")), "object": "line_item", "amount": .integer(amount), "currency": .string(currency),
                "period": ["start": .integer(start), "end": .integer(end)], "price": ["id": .string(priceID), "product": .string(stripeProductID)],
                "subscription": .string(subscriptionID), "subscription_item": .string(subscriptionItemID),
            ]]],
        ]
    }
}
