import LedgerDomain
import LedgerJSON

extension OpenAPIDocument {
    /// The web checkout's bodies: Stripe's webhook acknowledged, and what a user holds.
    /// Nullable fields are listed as required with a `null` type: present and `null`.
    static var webCheckoutSchemas: [String: JSONValue] {
        let time: JSONValue = ["type": ["string", "null"], "format": "date-time"]
        return [
            "StripeEventAcknowledged": object([
                "status": ["type": "string", "enum": ["recorded", "duplicate"]],
                "event_id": ["type": "string", "description": "Stripe's evt_… id, the idempotency key."],
                "type": ["type": "string"],
                "fact": ["type": "string", "enum": ["checkout", "subscription", "invoice", "payment_intent", "refund", "dispute", "seen"],
                         "description": "What the ledger recorded it as; seen for a type the rules do not read."],
                "position": ["type": "integer", "format": "int64", "description": "Where the log holds it (absent for a duplicate)."],
            ], required: ["status", "event_id", "type", "fact"]),
            "EntitlementTrial": object([
                "mode": ["type": "string", "enum": TrialMode.allCases.map { .string($0.rawValue) }.jsonArray],
                "ends_at": time,
                "upfront_amount_cents": ["type": ["integer", "null"], "description": "A paid trial's upfront charge, as collected."],
                "hold": ["type": ["string", "null"], "enum": ["placed", "captured", "released", "expired", nil],
                         "description": "An auth_hold trial's authorization hold."],
            ], required: ["mode", "ends_at", "upfront_amount_cents", "hold"]),
            "Entitlement": object([
                "product_id": ["type": "string"],
                "source": ["type": "string", "enum": ["storekit", "web"]],
                "purchase_id": ["type": "string", "description": "The subscription (originalTransactionId, sub_…) or purchase (cs_…, a transaction id) that grants it."],
                "status": ["type": "string", "enum": ["active", "trialing", "past_due", "purchased"]],
                "expires_at": time,
                "will_renew": ["type": ["boolean", "null"], "description": "null when the ledger cannot know: a StoreKit transaction does not carry its renewal status."],
                "trial": ["oneOf": [["$ref": "#/components/schemas/EntitlementTrial"], ["type": "null"]]],
                "recorded_by": ["type": "string", "enum": ["app_store", "stripe", "operator"]],
            ], required: ["product_id", "source", "purchase_id", "status", "expires_at", "will_renew", "trial", "recorded_by"]),
            "Entitlements": object([
                "user_id": ["type": "string"],
                "entitlements": ["type": "array", "items": ["$ref": "#/components/schemas/Entitlement"]],
                "as_of": ["type": "string", "format": "date-time", "description": "The time the answer holds at."],
                "position": ["type": "integer", "format": "int64", "description": "The log position the answer reflects."],
            ], required: ["user_id", "entitlements", "as_of", "position"]),
        ]
    }
}

private extension Array where Element == JSONValue {
    var jsonArray: JSONValue { .array(self) }
}
