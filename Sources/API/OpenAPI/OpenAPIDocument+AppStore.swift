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
                       "description": "active: within its period or renewed; expired: Apple ended it (EXPIRED, GRACE_PERIOD_EXPIRED), or its latest transaction's expiry has passed without a renewal; refunded: Apple refunded it (REFUND, or a revoked purchased transaction); revoked: Family Sharing access was withdrawn (REVOKE, or a revoked shared transaction); in_grace_period: Apple could not renew it (DID_FAIL_TO_RENEW, GRACE_PERIOD) and the plan is kept until the grace period ends; in_billing_retry: Apple could not renew it and is retrying the payment, the plan lapsed at its expiry. An end takes the plan at the next start of a UTC month (N4)."],
            "expires_at": ["type": ["string", "null"], "format": "date-time"],
            "environment": ["type": "string", "enum": ["Production", "Sandbox", "Xcode"]],
            "held_by_reader": ["type": "boolean", "description": "Whether the person asking is the one who bought it."],
            "ownership": ["type": ["string", "null"], "enum": .array(AppStoreOwnership.allCases.map { .string($0.rawValue) } + [.null]),
                          "description": "Who holds the plan (the latest transaction's inAppOwnershipType): purchased by the subscriber, or family_shared through Family Sharing; null when not recorded."],
            "offer": ["oneOf": [["type": "null"], object([
                "type": ["type": ["string", "null"], "enum": .array(AppStoreOfferAttribution.Kind.allCases.map { .string($0.rawValue) } + [.null]),
                         "description": "Apple's offerType named; null for a code Apple has not documented."],
                "code": ["type": "integer", "description": "Apple's offerType: 1 introductory, 2 promotional, 3 offer code, 4 win-back."],
                "identifier": nullableString, "discount_type": nullableString,
            ], required: ["type", "code", "identifier", "discount_type"])],
                      "description": "The offer the latest transaction was bought with, or null."],
            "price_increase": ["oneOf": [["type": "null"], object([
                "status": ["type": "string", "enum": .array(PriceIncreaseStatus.allCases.map { .string($0.rawValue) })],
                "signed_at": ["type": "string", "format": "date-time"],
            ], required: ["status", "signed_at"])], "description": "The latest price increase Apple told the subscriber of (PRICE_INCREASE), or null."],
            "renewal_extension": ["oneOf": [["type": "null"], object([
                "status": ["type": "string", "enum": ["extended", "failed"]],
                "signed_at": ["type": "string", "format": "date-time"],
            ], required: ["status", "signed_at"])], "description": "The latest renewal date extension: RENEWAL_EXTENDED, or a RENEWAL_EXTENSION FAILURE; null when none."],
        ], required: ["original_transaction_id", "product_id", "plan", "status", "expires_at", "environment", "held_by_reader",
                      "ownership", "offer", "price_increase", "renewal_extension"])
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
                "outcome": ["type": "string", "description": "applied; expired, refunded or revoked (an end, N4); grace_period or billing_retry (DID_FAIL_TO_RENEW); price_increase_pending or price_increase_accepted (PRICE_INCREASE); renewal_extension_failed (RENEWAL_EXTENSION FAILURE); duplicate; or ignored: <reason>."],
            ], required: ["status", "notification_uuid", "outcome"]),
        ]
    }
}
