import HTTP
import LedgerJSON

/// Registers the IAP catalog surface the SDKs call, authenticated by a publishable key.
enum CatalogEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        /// A response with the seed's `Error` body.
        func error(_ description: String) -> JSONValue {
            ["description": .string(description), "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
        }
        let errors = ["401": error("Invalid or missing API key."), "403": error("Account disabled or insufficient permissions.")]
        router.add("GET", "/v1/iap/products", operation: [
            "operationId": "getProducts", "tags": ["Products"], "summary": "Get Products",
            "description": "Fetches the product catalog for your app, including web and StoreKit prices, checkout configuration, trial eligibility, and any active migration campaign. Pass `user_id` to get per-user trial eligibility.",
            "security": [["ApiKeyAuth": []]],
            "parameters": [
                ["name": "user_id", "in": "query", "required": false, "schema": ["type": "string"],
                 "description": "The user's external ID. When provided, the response includes per-user `is_trial_eligible` on each product."],
                ["name": "demo", "in": "query", "required": false, "schema": ["type": "string", "enum": ["migration", "upgrade"]],
                 "description": "Debug-only, test-mode keys only: previews the configured campaign as if the user were eligible (`migration` or `upgrade`). Live keys ignore it; any other value drops the bypass; no impression is counted."],
            ],
            "responses": .object(errors.merging(["200": [
                "description": "Product catalog with checkout configuration",
                "content": ["application/json": ["schema": ["$ref": "#/components/schemas/ProductCatalog"]]],
            ]]) { a, _ in a }),
        ]) { request in
            try ProductsEndpoint.handle(request, context: context)
        }
        router.add("GET", "/v1/iap/entitlements", operation: [
            "operationId": "getEntitlements", "tags": ["Products"], "summary": "Get a user's entitlements",
            "description": "Every product the user holds now with the key's app, across StoreKit (synced transactions) and the web (the payment processor's events): its source, expiry, whether it renews, its trial and who recorded it, as of the log position given. Consumables are used up, never held. `min_position` waits for the log position a write answered.",
            "security": [["ApiKeyAuth": []]],
            "parameters": [
                ["name": "user_id", "in": "query", "required": true, "schema": ["type": "string"], "description": "The user's external ID."],
                ["name": "min_position", "in": "query", "required": false, "schema": ["type": "integer", "format": "int64"],
                 "description": "Answer only once the projections read have applied this log position (read your writes)."],
            ],
            "responses": .object(errors.merging([
                "200": ["description": "What the user holds now.",
                        "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Entitlements"]]]],
                "400": error("user_id is missing or not an id."),
            ]) { a, _ in a }),
        ]) { request in
            try EntitlementsEndpoint.handle(request, context: context)
        }
        router.add("POST", "/v1/iap/transactions", operation: [
            "operationId": "syncTransaction", "tags": ["Products"], "summary": "Sync a StoreKit 2 transaction",
            "description": "Records a StoreKit 2 transaction (its `jwsRepresentation`, verified against Apple's root and the app's bundle ID) in the user's purchase history with the app, which trial eligibility and campaign targeting read. Sending it again changes nothing. A test-mode key cannot sync a Production transaction.",
            "security": [["ApiKeyAuth": []]],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/TransactionSync"]]]],
            "responses": .object(errors.merging([
                "200": ["description": "Synced, or synced before (`recorded: false`).",
                        "content": ["application/json": ["schema": ["$ref": "#/components/schemas/TransactionSynced"]]]],
                "400": error("The body is not the expected JSON."),
                "409": error("The transaction was synced before for another user."),
                "422": error("The transaction does not verify."),
            ]) { a, _ in a }),
        ]) { request in
            try TransactionSyncEndpoint.handle(request, context: context)
        }
    }
}
