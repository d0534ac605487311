import LedgerJSON
import LedgerServices

/// The OpenAPI 3.1 document the service serves at `/openapi.json`: the paths come from
/// the router, so that a route cannot exist without being documented.
enum OpenAPIDocument {
    static let version = LedgerVersion.current

    static func build(paths: JSONValue) -> JSONValue {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "Ledger",
                "version": .string(version),
                "description": "Event-sourced billing ledger: the IAP product catalog, balances, journal, usage, App Store offer, StoreKit 2 transactions and App Store Server Notifications V2. Every state change is an event in an append-only, hash-chained log; reads come from projections.",
                "license": ["name": "Apache-2.0", "identifier": "Apache-2.0"],
            ],
            "paths": paths,
            "webhooks": webhooks,
            "components": [
                "headers": .object(headers),
                "schemas": .object(schemas.merging(billingSchemas) { a, _ in a }.merging(appStoreSchemas) { a, _ in a }.merging(catalogSchemas) { a, _ in a }.merging(webhookSchemas) { a, _ in a }.merging(transparencySchemas) { a, _ in a }.merging(promotionalOfferSchemas) { a, _ in a }.merging(webCheckoutSchemas) { a, _ in a }),
                "securitySchemes": [
                    "secretKey": ["type": "http", "scheme": "bearer",
                                  "description": "A secret key `sk_…` issued by `ledger admin key issue` to one project, payer, internal service or auditor."],
                    "ApiKeyAuth": ["type": "apiKey", "in": "header", "name": "X-ZeroSettle-Key",
                                   "description": "A publishable key of one app: `zs_pk_test_*` for sandbox, `zs_pk_live_*` for production (`ledger admin app key issue`)."],
                    "session": ["type": "apiKey", "in": "cookie", "name": "session",
                                "description": "The signed-in person's session (HS256 token); writes also need the X-CSRF-Token header with its csrf claim and an Origin of the app."],
                ],
            ],
        ]
    }

    static var schemas: [String: JSONValue] {
        [
            "Problem": [
                "type": "object",
                "description": "RFC 9457 problem details (application/problem+json).",
                "required": ["type", "title", "status", "code", "detail"],
                "properties": [
                    "type": ["type": "string", "format": "uri-reference",
                             "description": "`/problems/<code>`: relative to the request's URI, the API's page about the code."],
                    "title": ["type": "string"],
                    "status": ["type": "integer"],
                    "code": ["type": "string", "description": "Stable machine-readable code."],
                    "detail": ["type": "string", "description": "What was wrong, for people."],
                    "errors": ["type": "array", "items": ["type": "string"]],
                ],
            ],
            "Health": [
                "type": "object", "required": ["status"],
                "properties": ["status": ["type": "string", "enum": ["ok"]]],
            ],
            "Readiness": [
                "type": "object",
                "description": "Ready or not, and why in words. No position, lag, checkpoint or replica: those are on the operations listener (LEDGER_METRICS_ADDRESS), for operators.",
                "required": ["status", "reason"],
                "properties": [
                    "status": ["type": "string", "enum": ["ready", "not_ready"]],
                    "reason": ["type": "string", "description": "Why, in a sentence without numbers: the database does not answer, a migration is pending, a projection stopped, the projections are catching up."],
                ],
            ],
        ]
    }
}
