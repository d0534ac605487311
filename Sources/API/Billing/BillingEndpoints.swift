import HTTP
import LedgerDomain
import LedgerJSON

/// Registers the billing surface: the three reads for projects and payers, and ingestion.
enum BillingEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        for (kind, make) in [("projects", BillingAccount.project), ("payers", BillingAccount.payer)] as [(String, @Sendable (String) -> BillingAccount)] {
            let who = kind == "projects" ? "project" : "payer"
            let idParameter: JSONValue = ["name": "id", "in": "path", "required": true, "schema": ["type": "string"],
                                          "description": .string("The \(who)'s id.")]
            router.add("GET", "/v1/\(kind)/{id}/balance", operation: OpenAPIOperations.billing(
                id: "get\(who.capitalized)Balance", summary: "Balance snapshot of a \(who) (B1–B4).",
                description: who == "project"
                    ? "Source-aware snapshot: credits by source, consumption posted and held, available. A project funded by a payer sees only its own share (U6, U7). Not a payment authority (B3)."
                    : "The payer's whole pool: credits by source, every project's consumption, the reserve available.",
                parameters: [idParameter, OpenAPIOperations.minPosition], schema: "Balance")) { request in
                try BalanceEndpoint.handle(request, account: make(request.pathParameters["id"] ?? ""), context: context)
            }
            router.add("GET", "/v1/\(kind)/{id}/journal", operation: OpenAPIOperations.billing(
                id: "list\(who.capitalized)JournalEntries", summary: "Posted journal entries of a \(who), oldest first (J1–J4).",
                description: "Stable cursor pagination over immutable posted entries; holds never appear (J2); a correction names the entry it corrects and that entry lists its corrections (J3).",
                parameters: [idParameter,
                             ["name": "limit", "in": "query", "schema": ["type": "integer", "minimum": 1, "maximum": 200, "default": 50]],
                             ["name": "cursor", "in": "query", "schema": ["type": "string"],
                              "description": "`next_cursor` of the previous page; a malformed or foreign cursor is a 400 invalid_cursor."],
                             OpenAPIOperations.minPosition],
                schema: "JournalPage", extraResponses: ["400": OpenAPIOperations.problem("Invalid limit or cursor.")])) { request in
                try JournalEndpoint.handle(request, account: make(request.pathParameters["id"] ?? ""), context: context)
            }
            router.add("GET", "/v1/\(kind)/{id}/usage", operation: OpenAPIOperations.billing(
                id: "get\(who.capitalized)Usage", summary: "Usage of a \(who) for one UTC month (U1–U7).",
                description: "Bytes served and received (never billed), storage and its billed part, counted units, free units used, billed units and amounts. Estimated until the month is closed.",
                parameters: [idParameter,
                             ["name": "month", "in": "query", "schema": ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"],
                              "description": "UTC month YYYY-MM; the current month by default."],
                             OpenAPIOperations.minPosition],
                schema: "Usage", extraResponses: ["400": OpenAPIOperations.problem("Invalid month.")])) { request in
                try UsageEndpoint.handle(request, account: make(request.pathParameters["id"] ?? ""), context: context)
            }
            router.add("GET", "/v1/\(kind)/{id}/events", operation: OpenAPIOperations.billing(
                id: "list\(who.capitalized)Messages", summary: "The \(who)'s webhook messages, in order: the pull feed.",
                description: "The messages webhook subscriptions covering the \(who) receive (docs/webhooks.md), with the same ids and bodies; `sequence` is the \(who)'s own gapless number, so a backend that was down reads on from the last one it saw.",
                parameters: [idParameter,
                             ["name": "limit", "in": "query", "schema": ["type": "integer", "minimum": 1, "maximum": 200, "default": 50]],
                             ["name": "after", "in": "query", "schema": ["type": "integer", "minimum": 0, "default": 0],
                              "description": "The `sequence` of the last message seen (`next_after` of the previous page)."],
                             OpenAPIOperations.minPosition],
                schema: "MessageFeed", extraResponses: ["400": OpenAPIOperations.problem("Invalid limit or after.")])) { request in
                try MessageFeedEndpoint.handle(request, account: make(request.pathParameters["id"] ?? ""), context: context)
            }
        }
        router.add("POST", "/v1/usage/events", operation: [
            "operationId": "ingestUsageEvents", "tags": ["Usage ingestion"],
            "summary": "Record a batch of 1–1,000 usage events (internal service key).",
            "description": "Validated as a whole and appended as a whole or not at all. Each event's id makes it idempotent: an id already recorded with the same content is counted once; with different content the batch is a 409.",
            "security": [["secretKey": []]],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/UsageBatch"]]]],
            "responses": [
                "200": ["description": "Recorded.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/UsageAccepted"]]]],
                "400": OpenAPIOperations.problem("Not JSON, or not the expected shape."),
                "401": OpenAPIOperations.problem("Missing, unknown or revoked key."),
                "403": OpenAPIOperations.problem("Not a service key."),
                "409": OpenAPIOperations.problem("A usage id was recorded before with different content."),
                "422": OpenAPIOperations.problem("Invalid events (listed in `errors`); nothing recorded."),
            ],
        ]) { request in
            try UsageIngestionEndpoint.handle(request, context: context)
        }
    }
}
