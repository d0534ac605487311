import LedgerJSON

extension StripeScenario {
    /// `charge.refunded`: the last charge refunded now, in full by default.
    public mutating func refundLastCharge(amount: Int64? = nil) -> StripeEventDraft {
        guard let current = lastCharge else { preconditionFailure("a payment comes first") }
        let total = current["amount"]?.int64Value ?? 0
        let refunded = min(total, (current["amount_refunded"]?.int64Value ?? 0) + (amount ?? total))
        let updated = Self.updating(current, ["amount_refunded": .integer(refunded), "refunded": .bool(refunded == total)])
        lastCharge = updated.updated
        return draft("charge.refunded", updated.updated, previous: updated.previous, requestID: StripeID.make("req_", length: 14))
    }

    /// `charge.dispute.created`: the customer's bank disputes the last charge now, for
    /// `reason` (`fraudulent`, `subscription_canceled`, `product_not_received`, …).
    public mutating func openDispute(reason: String = "fraudulent") -> StripeEventDraft {
        guard let charge = lastCharge else { preconditionFailure("a payment comes first") }
        let object: JSONValue = [
            "id": .string(StripeID.make("dp_")), "object": "dispute", "charge": charge["id"] ?? .null,
            "payment_intent": charge["payment_intent"] ?? .null, "amount": charge["amount"] ?? 0, "currency": .string(currency),
            "status": "needs_response", "reason": .string(reason), "created": .integer(now), "livemode": false,
            "evidence_details": ["due_by": .integer(now + 7 * 86_400), "has_evidence": false, "submission_count": 0],
        ]
        dispute = object
        return draft("charge.dispute.created", object)
    }

    /// `charge.dispute.closed`: the dispute decided now, `won` or lost.
    public mutating func closeDispute(won: Bool) -> StripeEventDraft {
        guard let current = dispute else { preconditionFailure("openDispute comes first") }
        let closed = Self.updating(current, ["status": won ? "won" : "lost"]).updated
        dispute = closed
        return draft("charge.dispute.closed", closed)
    }

    /// A succeeded charge of `amount` (`ch_…`), of `paymentIntent` and, for a subscription's
    /// payment, `invoice`.
    func charge(id: String? = nil, amount: Int64, paymentIntent: String, invoice: String?) -> JSONValue {
        [
            "id": .string(id ?? StripeID.make("ch_")), "object": "charge", "customer": .string(customerID),
            "payment_intent": .string(paymentIntent), "invoice": invoice.map(JSONValue.string) ?? .null,
            "amount": .integer(amount), "amount_captured": .integer(amount), "amount_refunded": 0, "refunded": false,
            "captured": true, "paid": true, "status": "succeeded", "currency": .string(currency), "created": .integer(now),
            "metadata": metadata, "livemode": false,
        ]
    }
}
