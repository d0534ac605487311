import LedgerJSON

extension OpenAPIDocument {
    static var webhookSchemas: [String: JSONValue] {
        [
            "WebhookMessage": object([
                "id": ["type": "string", "description": "The same for the same event, type and subject, on every attempt, replay and in the feed."],
                "type": ["type": "string", "enum": ["subscription.started", "subscription.renewed", "subscription.upgraded",
                                                    "subscription.downgraded", "subscription.expired", "subscription.refunded",
                                                    "plan.changed", "month.closed", "balance.low", "correction.posted",
                                                    "usage.month_summary"]],
                "subject": ["type": "string", "description": "`project:ID`, `payer:ID`, `org:ID` or `app:ID`."],
                "sequence": ["type": "integer", "description": "Gapless: per subscription in a webhook, per subject in the feed."],
                "position": ["type": "integer", "description": "The log position of the event the message comes from."],
                "created_at": ["type": "string", "format": "date-time"],
                "occurred_at": ["type": "string", "format": "date-time"],
                "event": object(["type": ["type": "string"], "stream": ["type": "string"], "data": ["type": "object"]],
                                required: ["type", "stream", "data"]),
                "state": ["type": "object", "description": "The subject right after the event, as of its log position: an organization's `plan` (`current`, `source`) and, for subscription.*, its `subscription`; a payer's or project's `balance.posted`, and `plan` or the month's `charge` by type (docs/webhooks.md)."],
            ], required: ["id", "type", "subject", "sequence", "position", "created_at", "occurred_at", "event", "state"]),
            "MessageFeed": object([
                "subject": ["type": "string"],
                "messages": ["type": "array", "items": ["$ref": "#/components/schemas/WebhookMessage"]],
                "has_more": ["type": "boolean"], "next_after": ["type": ["integer", "null"]], "position": ["type": "integer"],
            ], required: ["subject", "messages", "has_more", "position"]),
        ]
    }

    /// OpenAPI 3.1 `webhooks`: what a subscription's URL receives.
    static var webhooks: JSONValue {
        ["message": ["post": [
            "operationId": "receiveWebhookMessage", "tags": ["WebhookSigning"],
            "summary": "One message, POSTed to a subscription's URL, at least once, in sequence order.",
            "description": "Verify `Ledger-Signature` (HMAC-SHA256 of `t.body` with the subscription's secret; docs/webhooks.md) before parsing; deduplicate on `id`. Answer 2xx; anything else is retried with exponential backoff for three days.",
            "parameters": [
                ["name": "Ledger-Signature", "in": "header", "required": true, "schema": ["type": "string"],
                 "description": "`t=UNIX_SECONDS,v1=HEX[,v1=HEX]`; two v1 during a secret rotation."],
                ["name": "Ledger-Message-Id", "in": "header", "required": true, "schema": ["type": "string"]],
                ["name": "Ledger-Sequence", "in": "header", "required": true, "schema": ["type": "integer"]],
                ["name": "Ledger-Event-Type", "in": "header", "required": true, "schema": ["type": "string"]],
            ],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["$ref": "#/components/schemas/WebhookMessage"]]]],
            "responses": ["200": ["description": "Received; any 2xx does."]],
        ]]]
    }
}
