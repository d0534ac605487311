import LedgerJSON

extension OpenAPIDocument {
    /// The seed's schemas (`seeds/zerosettle-products-openapi.yaml`), field by field, in
    /// OpenAPI 3.1 form: `nullable: true` becomes a `null` type.
    static var catalogSchemas: [String: JSONValue] {
        func nullable(_ type: String, _ description: String) -> JSONValue { ["type": [.string(type), "null"], "description": .string(description)] }
        func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/" + name)] }
        func nullableRef(_ name: String, _ description: String) -> JSONValue {
            ["description": .string(description), "oneOf": [ref(name), ["type": "null"]]]
        }
        let sheet: JSONValue = ["type": "string", "enum": ["webview", "native"]]
        let integer: JSONValue = ["type": "integer"], string: JSONValue = ["type": "string"], boolean: JSONValue = ["type": "boolean"]
        return [
            "ProductCatalog": [
                "type": "object", "required": ["products", "checkout_config"],
                "properties": [
                    "products": ["type": "array", "items": ref("Product")],
                    "checkout_config": ref("CheckoutConfig"),
                    "migration_campaign": nullableRef("MigrationCampaign", "Active Switch & Save migration campaign, or null if none is configured."),
                    "offer": nullableRef("Offer", "Unified offer for the current user. Null if the user is not eligible for any offer."),
                ],
            ],
            "CheckoutConfig": [
                "type": "object", "description": "Configuration for how the SDK should present checkout.",
                "properties": [
                    "sheet_type": sheet, "is_enabled": boolean,
                    "jurisdictions": ["type": "object", "properties": ["us": ref("JurisdictionConfig"), "eu": ref("JurisdictionConfig"),
                                                                       "other": ref("JurisdictionConfig")]],
                    "apple_merchant_id": nullable("string", "Apple Merchant ID for Apple Pay, if configured."),
                ],
            ],
            "JurisdictionConfig": ["type": "object", "properties": ["sheet_type": sheet, "is_enabled": boolean]],
            "Price": [
                "type": "object", "description": "A price in micros (1/1,000,000 of the currency unit).",
                "properties": ["amount_micros": integer, "currency_code": string],
            ],
            "Product": [
                "type": "object", "description": "A product in the catalog.",
                "properties": [
                    "id": string, "display_name": string, "product_description": string,
                    "type": ["type": "string", "enum": ["consumable", "non_consumable", "non_renewing_subscription", "auto_renewable_subscription"]],
                    "web_price": nullableRef("Price", "The web checkout price, or null if not available for web purchase."),
                    "storekit_price": nullableRef("Price", "The StoreKit price from App Store Connect, or null if not synced."),
                    "subscription_group_id": nullable("integer", "The subscription group, or null for non-subscription products."),
                    "free_trial_duration": nullable("string", "ISO 8601 duration of the free trial (e.g. P7D), or null."),
                    "is_trial_eligible": nullable("boolean", "Null if `user_id` was not provided."),
                    "trial": [
                        "type": ["object", "null"],
                        "description": "Present only for auto-renewable subscriptions with a trial, when `user_id` was given and the user is eligible.",
                        "properties": [
                            "mode": ["type": "string", "enum": ["free", "paid", "auth_hold"]],
                            "duration": string, "upfront_amount_cents": integer, "hold_amount_cents": integer, "validates_card": boolean,
                        ],
                    ],
                ],
            ],
            "MigrationCampaign": [
                "type": "object", "description": "An active Switch & Save migration campaign.",
                "properties": [
                    "should_show": boolean, "product_id": string, "discount_percent": integer, "min_subscription_days": integer,
                    "max_subscription_days": integer, "free_trial_days": integer, "title": string, "message": string,
                    "variant_id": nullable("integer", "Experiment variant ID if the campaign is part of an A/B test."),
                ],
            ],
            "OfferDisplay": [
                "type": "object", "description": "Copy for every tip card state; empty strings mean the SDK's defaults.",
                "required": ["offer_title", "offer_message", "offer_cta", "accepted_title", "accepted_message", "accepted_cta",
                             "completed_title", "completed_message"],
                "properties": [
                    "offer_title": string, "offer_message": string, "offer_cta": string, "accepted_title": string,
                    "accepted_message": string, "accepted_cta": string, "completed_title": string, "completed_message": string,
                ],
            ],
            "Offer": [
                "type": "object", "description": "Unified offer payload for migration and upgrade flows.",
                "required": ["flow_type", "product_id", "eligible_product_ids", "savings_percent", "display", "free_trial_days",
                             "min_subscription_days", "max_subscription_days", "rollout_percent"],
                "properties": [
                    "flow_type": ["type": "string", "enum": ["migration", "upgrade"]],
                    "product_id": string, "eligible_product_ids": ["type": "array", "items": string],
                    "savings_percent": integer, "display": ref("OfferDisplay"), "free_trial_days": integer,
                    "min_subscription_days": integer, "max_subscription_days": nullable("integer", "Maximum days subscribed for eligibility."),
                    "rollout_percent": integer,
                    "upgrade_type": ["type": ["string", "null"], "enum": ["storekit_to_web", "web_to_web", nil]],
                    "from_product_id": nullable("string", "User's current product (upgrades only)."),
                    "to_product_id": nullable("string", "Upgrade target product (upgrades only)."),
                    "variant_id": nullable("integer", "Experiment variant ID (when A/B testing)."),
                    "per_product_prompts": nullable("object", "Per-product display overrides keyed by product ID."),
                    "checkout_presentation": ["type": ["string", "null"], "enum": ["inline", "sheet", nil]],
                ],
            ],
            "Error": [
                "type": "object", "description": "Error response.", "required": ["error"],
                "properties": ["error": string, "code": string],
            ],
            "TransactionSync": [
                "type": "object", "required": ["user_id", "jws_representation"],
                "properties": ["user_id": string, "jws_representation": ["type": "string", "description": "StoreKit 2 `Transaction.jwsRepresentation`."]],
            ],
            "TransactionSynced": [
                "type": "object", "required": ["status", "recorded", "position", "transaction_id", "original_transaction_id", "product_id"],
                "properties": [
                    "status": ["type": "string", "const": "synced"], "recorded": boolean, "position": integer,
                    "transaction_id": string, "original_transaction_id": string, "product_id": string,
                ],
            ],
        ]
    }
}
