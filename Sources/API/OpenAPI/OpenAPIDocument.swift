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
                "schemas": .object(schemas.merging(billingSchemas) { a, _ in a }.merging(appStoreSchemas) { a, _ in a }.merging(catalogSchemas) { a, _ in a }.merging(webhookSchemas) { a, _ in a }.merging(transparencySchemas) { a, _ in a }),
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
                    "type": ["type": "string", "format": "uri"],
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
                "required": ["ready", "status", "checks", "projections"],
                "properties": [
                    "ready": ["type": "boolean"],
                    "status": ["type": "string", "enum": ["ready", "not_ready"]],
                    "head": ["type": ["integer", "null"], "description": "The log's highest committed position."],
                    "checks": [
                        "type": "object",
                        "properties": [
                            "database": ["$ref": "#/components/schemas/ReadinessCheck"],
                            "migrations": ["$ref": "#/components/schemas/ReadinessCheck"],
                            "projections": ["$ref": "#/components/schemas/ReadinessCheck"],
                        ],
                    ],
                    "projections": [
                        "type": "array",
                        "items": [
                            "type": "object",
                            "properties": [
                                "name": ["type": "string"], "position": ["type": "integer"], "lag": ["type": "integer"],
                                "failed_position": ["type": ["integer", "null"]], "error": ["type": ["string", "null"]],
                                "exists": ["type": "boolean"],
                            ],
                        ],
                    ],
                    "replicas": [
                        "type": "array",
                        "description": "Each read replica (LEDGER_READ_DATABASE_URLS), absent without any. One out of rotation does not make the service unready: the primary serves its reads.",
                        "items": [
                            "type": "object", "required": ["name", "address", "in_rotation", "replay_paused", "projections"],
                            "properties": [
                                "name": ["type": "string"], "address": ["type": "string", "description": "host:port/database, never credentials."],
                                "in_rotation": ["type": "boolean"], "head": ["type": "integer"],
                                "lag_events": ["type": "integer", "description": "Positions behind the primary's head."],
                                "lag_ms": ["type": "integer", "description": "Milliseconds of received WAL not replayed yet."],
                                "replay_paused": ["type": "boolean"],
                                "projections": ["type": "object", "additionalProperties": ["type": "integer"]],
                                "detail": ["type": "string", "description": "Why it is out of rotation."],
                            ],
                        ],
                    ],
                    "checkpoint": [
                        "type": "object", "required": ["position", "size", "time"],
                        "description": "The last signed checkpoint of the log (docs/audit.md), absent until one is signed; its age never makes the service unready.",
                        "properties": ["position": ["type": "integer"], "size": ["type": "integer"], "time": ["type": "string", "format": "date-time"]],
                    ],
                ],
            ],
            "ReadinessCheck": [
                "type": "object", "required": ["ok"],
                "properties": ["ok": ["type": "boolean"], "detail": ["type": "string"]],
            ],
        ]
    }
}
