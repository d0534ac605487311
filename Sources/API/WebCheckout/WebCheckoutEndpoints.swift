import HTTP
import LedgerJSON

/// Registers the payment processor's surface: Stripe's webhooks, one URL per app.
enum WebCheckoutEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        router.add("POST", "/v1/stripe/webhooks/{app_id}", operation: [
            "operationId": "receiveStripeEvent", "tags": ["Web checkout"],
            "summary": "Stripe's webhook events for an app's web checkout.",
            "description": "The Stripe-Signature header is the credential: t= and one or more v1= values, HMAC-SHA256 of \"{t}.{raw body}\" with one of the app's endpoint secrets, t within the tolerance (300 s). The event's id is its idempotency key: a redelivery answers 200 and appends nothing. Checkout sessions completed, subscriptions, invoices paid and failed, payment intents (authorization holds), refunds and disputes are recorded as typed facts; other types as seen (docs/web-checkout.md).",
            "security": [],
            "parameters": [["name": "app_id", "in": "path", "required": true, "schema": ["type": "string"]]],
            "requestBody": ["required": true, "content": ["application/json": ["schema": ["type": "object"]]]],
            "responses": [
                "200": ["description": "Recorded, or recorded before (`duplicate`).",
                        "content": ["application/json": ["schema": ["$ref": "#/components/schemas/StripeEventAcknowledged"]]]],
                "400": OpenAPIOperations.problem("stripe_signature_missing, stripe_signature_malformed, stripe_signature_stale, stripe_signature_mismatch, stripe_event_malformed: nothing was recorded."),
                "404": OpenAPIOperations.problem("stripe_endpoint_not_configured (no endpoint secret for the app), or not_found (no such app)."),
                "422": OpenAPIOperations.problem("stripe_mode_mismatch, stripe_account_mismatch, stripe_event_invalid: the event is not for this app's Stripe account as recorded."),
                "429": OpenAPIOperations.problem("rate_limited: too many bodies that do not verify from the address; see Retry-After."),
            ],
        ]) { request in
            try StripeWebhookEndpoint.handle(request, context: context)
        }
    }
}
