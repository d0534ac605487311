import LedgerJSON

extension StripeScenario {
    /// `payment_intent.amount_capturable_updated`: a hold of `amount` on the customer's
    /// card, a manual-capture payment intent naming the subscription it secures
    /// (`metadata.subscription_id`), `requires_capture` until captured or canceled.
    public mutating func placeHold(amount: Int64) -> StripeEventDraft {
        let intent: JSONValue = [
            "id": .string(StripeID.make("pi_")), "object": "payment_intent", "customer": .string(customerID),
            "amount": .integer(amount), "amount_capturable": .integer(amount), "amount_received": 0, "currency": .string(currency),
            "status": "requires_capture", "capture_method": "manual", "cancellation_reason": .null, "canceled_at": .null,
            "latest_charge": .string(StripeID.make("ch_")), "invoice": .null,
            "metadata": ["user_id": .string(userID), "product_id": .string(productID), "subscription_id": .string(subscriptionID)],
            "created": .integer(now), "livemode": false,
        ]
        hold = intent
        return draft("payment_intent.amount_capturable_updated", intent)
    }

    /// `payment_intent.succeeded`: the hold captured now, in full.
    public mutating func captureHold() -> StripeEventDraft {
        guard let current = hold else { preconditionFailure("placeHold comes first") }
        let amount = current["amount"]?.int64Value ?? 0
        let captured = Self.updating(current, ["status": "succeeded", "amount_capturable": 0, "amount_received": .integer(amount)]).updated
        hold = captured
        lastCharge = charge(id: current["latest_charge"]?.stringValue, amount: amount, paymentIntent: current["id"]?.stringValue ?? "",
                            invoice: nil)
        return draft("payment_intent.succeeded", captured, requestID: StripeID.make("req_", length: 14))
    }

    /// `payment_intent.canceled`: the hold released now, for `reason`:
    /// `requested_by_customer` (the customer canceled during the trial), `abandoned`, or
    /// `automatic` (the authorization expired before it was captured, which Stripe does on
    /// its own: no request).
    public mutating func cancelHold(reason: String) -> StripeEventDraft {
        guard let current = hold else { preconditionFailure("placeHold comes first") }
        let canceled = Self.updating(current, ["status": "canceled", "amount_capturable": 0,
                                               "cancellation_reason": .string(reason), "canceled_at": .integer(now)]).updated
        hold = canceled
        return draft("payment_intent.canceled", canceled, requestID: reason == "automatic" ? nil : StripeID.make("req_", length: 14))
    }

    /// `payment_intent.succeeded` of a one-time payment of `amount`, captured at once;
    /// its charge becomes `lastCharge`.
    public mutating func succeedPayment(amount: Int64, paymentIntent id: String) -> StripeEventDraft {
        let chargeID = StripeID.make("ch_")
        let intent: JSONValue = [
            "id": .string(id), "object": "payment_intent", "customer": .string(customerID),
            "amount": .integer(amount), "amount_capturable": 0, "amount_received": .integer(amount), "currency": .string(currency),
            "status": "succeeded", "capture_method": "automatic", "cancellation_reason": .null, "canceled_at": .null,
            "latest_charge": .string(chargeID), "invoice": .null,
            "metadata": ["user_id": .string(userID), "product_id": .string(productID)],
            "created": .integer(now), "livemode": false,
        ]
        lastCharge = charge(id: chargeID, amount: amount, paymentIntent: id, invoice: nil)
        return draft("payment_intent.succeeded", intent)
    }
}
