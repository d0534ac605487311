import LedgerJSON

extension StripeScenario {
    /// `customer.subscription.created`: the subscription begins now, `trialing` for
    /// `trialDays` when given (its first period is the trial), else `status` for one period.
    public mutating func createSubscription(status: String = "active", trialDays: Int64? = nil) -> StripeEventDraft {
        let end = now + (trialDays.map { $0 * 86_400 } ?? periodSeconds)
        let object: JSONValue = [
            "id": .string(subscriptionID), "object": "subscription", "customer": .string(customerID),
            "status": .string(trialDays == nil ? status : "trialing"), "created": .integer(now), "start_date": .integer(now),
            "current_period_start": .integer(now), "current_period_end": .integer(end),
            "trial_start": trialDays == nil ? .null : .integer(now), "trial_end": trialDays == nil ? .null : .integer(end),
            "cancel_at_period_end": false, "cancel_at": .null, "canceled_at": .null, "ended_at": .null,
            "metadata": metadata, "items": items(start: now, end: end), "latest_invoice": .null,
            "currency": .string(currency), "livemode": false,
        ]
        subscription = object
        return draft("customer.subscription.created", object)
    }

    /// `customer.subscription.updated` with `changes` to the top-level fields, and their
    /// values before in `previous_attributes`. A change of period moves the items' too.
    public mutating func updateSubscription(_ changes: [String: JSONValue], requestID: String? = nil) -> StripeEventDraft {
        guard let current = subscription else { preconditionFailure("createSubscription comes first") }
        var changes = changes
        if changes["current_period_start"] != nil || changes["current_period_end"] != nil {
            let start = changes["current_period_start"]?.int64Value ?? current["current_period_start"]?.int64Value ?? now
            let end = changes["current_period_end"]?.int64Value ?? current["current_period_end"]?.int64Value ?? now
            changes["items"] = items(start: start, end: end)
        }
        let (updated, previous) = Self.updating(current, changes)
        subscription = updated
        return draft("customer.subscription.updated", updated, previous: previous, requestID: requestID)
    }

    /// The subscription moves to its next period now (a trial's end, a renewal): `status`
    /// (`active` by default) from now for one period.
    public mutating func startNextPeriod(status: String = "active") -> StripeEventDraft {
        updateSubscription(["status": .string(status), "current_period_start": .integer(now),
                            "current_period_end": .integer(now + periodSeconds)])
    }

    /// The customer asks to cancel at the period's end (an API request): `cancel_at_period_end`
    /// true, `cancel_at` the period's end, `canceled_at` now; the subscription stays as it is.
    public mutating func cancelAtPeriodEnd() -> StripeEventDraft {
        let end = subscription?["current_period_end"] ?? .null
        return updateSubscription(["cancel_at_period_end": true, "cancel_at": end, "canceled_at": .integer(now)],
                                  requestID: StripeID.make("req_", length: 14))
    }

    /// `customer.subscription.deleted`: the subscription ended now, `canceled`.
    public mutating func deleteSubscription() -> StripeEventDraft {
        guard let current = subscription else { preconditionFailure("createSubscription comes first") }
        let canceledAt = current["canceled_at"].flatMap { $0.isNull ? nil : $0 } ?? .integer(now)
        let (ended, _) = Self.updating(current, ["status": "canceled", "canceled_at": canceledAt, "ended_at": .integer(now)])
        subscription = ended
        return draft("customer.subscription.deleted", ended)
    }

    /// `items` of a subscription of the scenario's one price, for the period `start`–`end`.
    func items(start: Int64, end: Int64) -> JSONValue {
        let price: JSONValue = [
            "id": .string(priceID), "object": "price", "product": .string(stripeProductID), "lookup_key": .string(productID),
            "metadata": ["product_id": .string(productID)], "unit_amount": .integer(amount), "currency": .string(currency),
            "recurring": ["interval": "day", "interval_count": .integer(max(1, periodSeconds / 86_400))],
        ]
        return ["object": "list", "data": [[
            "id": .string(subscriptionItemID), "object": "subscription_item", "price": price, "quantity": 1,
            "current_period_start": .integer(start), "current_period_end": .integer(end),
        ]]]
    }
}
