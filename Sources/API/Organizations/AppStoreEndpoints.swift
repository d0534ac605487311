import HTTP
import LedgerJSON

/// Registers the App Store surface: the offer (O), recording a transaction (T) and Apple's
/// Server Notifications V2 (N).
enum AppStoreEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        let settings = context.appStore
        let orgParameter: JSONValue = ["name": "org_id", "in": "path", "required": true, "schema": ["type": "string"]]
        router.add("GET", "/v1/orgs/{org_id}/appstore/offer", operation: [
            "operationId": "getAppStoreOffer", "tags": ["App Store"],
            "summary": "What the organization can buy through the App Store, and its account token (O1–O13).",
            "description": "For a designated administrator of the active organization. Staff and the administrators of the organization's reseller see it without products and with the all-zero token; anybody else gets 404. Private: Cache-Control: private, no-store.",
            "security": [["session": []]], "parameters": [orgParameter],
            "responses": [
                "200": ["description": "The offer.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/AppStoreOffer"]]]],
                "401": OpenAPIOperations.problem("No valid session."),
                "404": OpenAPIOperations.problem("No such organization for this session (existence is not revealed)."),
            ],
        ]) { request in
            try OfferEndpoint.handle(request, context: context, settings: settings)
        }
        router.add("POST", "/v1/orgs/{org_id}/appstore/transactions", operation: [
            "operationId": "recordAppStoreTransaction", "tags": ["App Store"],
            "summary": "Record a StoreKit 2 signed transaction bought for the organization (T1–T7).",
            "description": "A designated administrator of the active organization, with the session cookie, from the app's origin and with the CSRF header. The server verifies the JWS (chain to Apple Root CA - G3, bundle, product, environment) and that appAccountToken is the organization's. Sending a transaction again, or an older one, changes nothing and answers the subscription as it is. The app finishes the transaction after a 2xx or a 4xx (definitive); a 5xx may be retried.",
            "security": [["session": []]], "parameters": [orgParameter,
                ["name": "X-CSRF-Token", "in": "header", "required": true, "schema": ["type": "string"],
                 "description": "The session's `csrf` claim."]],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/AppStoreTransactionRequest"]]]],
            "responses": [
                "200": ["description": "Recorded, or already known.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/AppStoreTransactionRecorded"]]]],
                "401": OpenAPIOperations.problem("No valid session."),
                "403": OpenAPIOperations.problem("cross_origin, csrf_failed, forbidden (not an administrator) or education_not_eligible."),
                "404": OpenAPIOperations.problem("No such organization for this session."),
                "409": OpenAPIOperations.problem("app_store_account_mismatch, app_store_plan_conflict or billed_by_reseller."),
                "422": OpenAPIOperations.problem("app_store_transaction_invalid: the JWS does not verify, or names another app, a product that is not a plan, or an environment not accepted here."),
            ],
        ]) { request in
            try TransactionEndpoint.handle(request, context: context, settings: settings)
        }
        for environment in ["production", "sandbox"] {
            router.add("POST", "/v1/appstore/notifications/\(environment)", operation: [
                "operationId": .string("receiveAppStoreNotification" + environment.capitalized), "tags": ["App Store"],
                "summary": .string("App Store Server Notifications V2, \(environment) (N1–N8)."),
                "description": "The signed payload is the credential: it is verified as a transaction is, with its signed transaction and renewal info. 200 acknowledges (also a notification seen before, of another type, for a product that is not a plan, or naming no organization); 422 when it does not verify; 5xx only for a failure on our side, which Apple retries; 429 with Retry-After when a client address sends too many.",
                "security": [],
                "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/AppStoreNotificationBody"]]]],
                "responses": [
                    "200": ["description": "Acknowledged.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/AppStoreNotificationAcknowledged"]]]],
                    "400": OpenAPIOperations.problem("Not JSON or not {\"signedPayload\": …}."),
                    "422": OpenAPIOperations.problem("app_store_transaction_invalid: the payload does not verify."),
                    "429": OpenAPIOperations.problem("rate_limited; see Retry-After."),
                ],
            ]) { request in
                try NotificationEndpoint.handle(request, environment: environment, context: context, settings: settings,
                                                limiter: context.notificationLimiter)
            }
        }
    }
}
