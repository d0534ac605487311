import LedgerJSON

extension StripeScenario {
    /// A Checkout Session's `mode`.
    public enum CheckoutMode: String, Sendable {
        case subscription
        case payment
    }

    /// `checkout.session.completed`: the customer finished the ledger's checkout. In
    /// `subscription` mode it names the subscription (`createSubscription` makes it), in
    /// `payment` mode the payment intent. `paymentStatus` is `paid`, `unpaid` or
    /// `no_payment_required` (a trial that charges nothing now).
    public func completeCheckout(mode: CheckoutMode, paymentStatus: String, amountTotal: Int64,
                                 paymentIntent: String? = nil) -> StripeEventDraft {
        let session: JSONValue = [
            "id": .string(StripeID.make("cs_test_", length: 58)), "object": "checkout.session",
            "mode": .string(mode.rawValue), "client_reference_id": .string(userID), "customer": .string(customerID),
            "subscription": mode == .subscription ? .string(subscriptionID) : .null,
            "payment_intent": paymentIntent.map(JSONValue.string) ?? .null,
            "payment_status": .string(paymentStatus), "status": "complete",
            "amount_subtotal": .integer(amountTotal), "amount_total": .integer(amountTotal), "currency": .string(currency),
            "metadata": metadata, "created": .integer(now), "livemode": false,
        ]
        return draft("checkout.session.completed", session)
    }
}
