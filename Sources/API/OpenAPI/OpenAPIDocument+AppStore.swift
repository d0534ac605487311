import LedgerDomain
import LedgerJSON

extension OpenAPIDocument {
    /// The App Store surface's bodies (O, T, N). Nullable fields are listed as required with
    /// a `null` type: O12 wants them present and `null`, not absent.
    static var appStoreSchemas: [String: JSONValue] {
        let nullableString: JSONValue = ["type": ["string", "null"]]
        let plan = object([
            "current": ["type": "string", "description": "The plan in force now."],
            "level": ["type": "integer", "description": "Its level: higher plans include lower ones."],
            "source": ["type": ["string", "null"], "enum": ["staff", "billing", "app_store", nil], "description": "What grants it; null for the free plan."],
            "pending": [
                "oneOf": [["type": "null"], object(["plan": ["type": "string"], "from": ["type": "string", "format": "date-time"]],
                                                   required: ["plan", "from"])],
                "description": "The next change of the plan in force, whatever its source: a downgrade or removal by staff or billing, an App Store downgrade, end or lapse, each at the next start of a UTC month (T4, N4).",
            ],
        ], required: ["current", "level"])
        let subscription = object([
            "original_transaction_id": ["type": "string"], "product_id": ["type": "string"], "plan": ["type": "string"],
            "status": ["type": "string", "enum": .array(SubscriptionStatus.allCases.map { .string($0.rawValue) }),
                       "description": "ended: by Apple (EXPIRED, GRACE_PERIOD_EXPIRED, REFUND, REVOKE) or a revoked transaction; expired: its latest transaction's expiry has passed without a renewal; in_grace_period: Apple could not renew it (DID_FAIL_TO_RENEW, GRACE_PERIOD) and the plan is kept until the grace period ends; in_billing_retry: Apple could not renew it and is retrying the payment, the plan lapsed at its expiry."],
            "expires_at": ["type": ["string", "null"], "format": "date-time"],
            "environment": ["type": "string", "enum": ["Production", "Sandbox", "Xcode"]],
            "held_by_reader": ["type": "boolean", "description": "Whether the person asking is the one who bought it."],
        ], required: ["original_transaction_id", "product_id", "plan", "status", "expires_at", "environment", "held_by_reader"])
        let nullableSubscription: JSONValue = ["oneOf": [["type": "null"], subscription]]
        return [
            "AppStorePlan": plan,
            "AppStoreSubscription": subscription,
            "AppStoreOffer": object([
                "organization_id": ["type": "string"],
                "bundle_id": ["type": "string", "examples": ["ai.screenrig.app"]],
                "account_token": ["type": "string", "format": "uuid",
                                  "description": "The organization's appAccountToken; the all-zero UUID for readers who may not buy."],
                "can_purchase": ["type": "boolean"],
                "products": ["type": "array", "items": object([
                    "plan": ["type": "string"], "product_id": ["type": "string"], "level": ["type": "integer"],
                ], required: ["plan", "product_id", "level"])],
                "education_eligible": ["type": "boolean"],
                "education_eligibility_source": nullableString,
                "delegated_to_reseller": ["type": "boolean"],
                "plan": ["$ref": "#/components/schemas/AppStorePlan"],
                "subscription": nullableSubscription,
                "position": ["type": "integer", "format": "int64", "description": "The log position the answer reflects."],
            ], required: ["organization_id", "bundle_id", "account_token", "can_purchase", "products", "education_eligible",
                          "education_eligibility_source", "delegated_to_reseller", "plan", "subscription", "position"]),
            "AppStoreTransactionRequest": object([
                "signed_transaction": ["type": "string", "description": "StoreKit 2 `Transaction.jwsRepresentation`, as the app received it."],
            ], required: ["signed_transaction"]),
            "AppStoreTransactionRecorded": object([
                "recorded": ["type": "boolean", "description": "false when this transaction was known already (T6)."],
                "plan": ["$ref": "#/components/schemas/AppStorePlan"],
                "subscription": nullableSubscription,
                "position": ["type": "integer", "format": "int64"],
            ], required: ["recorded", "plan", "subscription", "position"]),
            "AppStoreNotificationBody": object([
                "signedPayload": ["type": "string", "description": "The JWS Apple sends (App Store Server Notifications V2)."],
            ], required: ["signedPayload"]),
            "AppStoreNotificationAcknowledged": object([
                "status": ["type": "string", "const": "acknowledged"],
                "notification_uuid": ["type": "string", "format": "uuid"],
                "outcome": ["type": "string", "description": "applied, ended, duplicate, or ignored: <reason>."],
            ], required: ["status", "notification_uuid", "outcome"]),
        ]
    }
}
