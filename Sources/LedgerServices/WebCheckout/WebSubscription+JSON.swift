import LedgerDomain
import LedgerJSON

extension WebSubscription {
    /// A web subscription in full, as operators read it (`ledger admin user show --json`):
    /// ended and refunded ones too, with what the processor's facts add.
    public var jsonValue: JSONValue {
        func time(_ t: Timestamp?) -> JSONValue { t.map { .string($0.iso8601) } ?? .null }
        return [
            "subscription_id": .string(subscriptionID),
            "user_id": userID.map(JSONValue.string) ?? .null,
            "customer_id": customerID.map(JSONValue.string) ?? .null,
            "product_id": productID.map(JSONValue.string) ?? .null,
            "status": .string(status.rawValue),
            "stripe_status": .string(stripeStatus),
            "created_at": time(createdAt),
            "access_ends_at": time(accessEndsAt),
            "will_renew": .bool(willRenew),
            "cancel_at_period_end": .bool(cancelAtPeriodEnd),
            "trial_end": time(trialEnd),
            "upfront_amount_cents": upfrontPaid.map(JSONValue.integer) ?? .null,
            "hold": hold.map { .string($0.rawValue) } ?? .null,
            "payment_failed": .bool(paymentFailed),
            "disputed": .bool(disputed),
            "revoked_at": time(revokedAt),
        ]
    }
}
