import HTTP
import LedgerJSON

/// Registers `POST /v1/appstore/offers/signature`: the signature StoreKit needs to redeem a
/// promotional offer, for an app authenticated by its publishable key as on the catalog
/// surface, answered in problem details as the rest of `/v1/appstore/`.
enum PromotionalOfferEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        let problem = OpenAPIOperations.problem
        router.add("POST", "/v1/appstore/offers/signature", operation: [
            "operationId": "signPromotionalOffer", "tags": ["App Store"],
            "summary": "Sign a promotional offer of one of the app's auto-renewable subscriptions for StoreKit.",
            "description": "Returns what `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` (or `SKPaymentDiscount`) needs: the key identifier, the nonce, the timestamp and the signature (ECDSA P-256 with SHA-256 over Apple's payload, DER, base64) made with the app's promotional offer key. The server makes the nonce (a UUID v4) and takes its clock's time unless the app sends its own: a nonce must be a UUID, a timestamp within 300 seconds of the server's clock. Authenticated by the app's publishable key, as the catalog is; the product must be one of that app's auto-renewable subscriptions. Nothing is recorded. Private: Cache-Control: private, no-store.",
            "security": [["ApiKeyAuth": []]],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/PromotionalOfferRequest"]]]],
            "responses": [
                "200": ["description": "Signed.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/PromotionalOfferSignature"]]]],
                "400": problem("invalid_body, invalid_product_id, invalid_offer_id, invalid_app_account_token, invalid_nonce or invalid_timestamp (the detail names the field), or a malformed request."),
                "401": problem("missing_api_key or invalid_api_key: no publishable key, or not one of any app."),
                "403": problem("api_key_revoked or app_disabled."),
                "422": problem("unknown_product (not in this app's catalog), not_a_subscription (not an auto-renewable subscription) or timestamp_out_of_window."),
                "503": problem("offer_key_not_configured: no promotional offer key is configured for the app's bundle ID (the deployment's configuration, LEDGER_APPSTORE_OFFER_KEYS); or, as on every route, database_unavailable, overloaded, shutting_down. See Retry-After."),
            ],
        ]) { request in
            try PromotionalOfferEndpoint.handle(request, context: context)
        }
    }
}
