import LedgerJSON

extension StripeScenario {
    /// A one-time payment of `amount`: checkout completed in `payment` mode, paid, and its
    /// payment intent succeeded.
    public mutating func oneTimePayment() -> [StripeEventDraft] {
        let intent = StripeID.make("pi_")
        return [
            completeCheckout(mode: .payment, paymentStatus: "paid", amountTotal: amount, paymentIntent: intent),
            succeedPayment(amount: amount, paymentIntent: intent),
        ]
    }

    /// A one-time payment refunded in full `afterDays` later (`charge.refunded`).
    public mutating func refundedPayment(afterDays: Int64 = 1) -> [StripeEventDraft] {
        var events = oneTimePayment()
        advance(days: afterDays)
        events.append(refundLastCharge())
        return events
    }

    /// A one-time payment disputed `afterDays` later (`charge.dispute.created`,
    /// `needs_response`), the dispute closed `won` or lost ten days after.
    public mutating func disputedPayment(afterDays: Int64 = 3, won: Bool, reason: String = "fraudulent") -> [StripeEventDraft] {
        var events = oneTimePayment()
        advance(days: afterDays)
        events.append(openDispute(reason: reason))
        advance(days: 10)
        events.append(closeDispute(won: won))
        return events
    }
}
