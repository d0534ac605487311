extension ProblemTypes {
    /// `POST /v1/stripe/webhooks/{app_id}`'s codes: the signature, the event, and the
    /// rules that refuse an event for the app (docs/web-checkout.md).
    static let stripe = ProblemTypeGroup(
        name: "Stripe webhooks", anchor: "stripe-webhooks",
        summary: "`POST /v1/stripe/webhooks/{app_id}`, called by Stripe; the `Stripe-Signature` over the raw body is the credential. Answers are RFC 9457 problems; nothing is recorded from a refused webhook. Stripe retries a non-2xx answer for days, so a refusal caused by configuration heals once it is fixed.",
        types: [
            ProblemType("stripe_endpoint_not_configured", [404], "No Stripe endpoint secret for this app",
                        meaning: "`LEDGER_STRIPE_WEBHOOK_SECRETS` names no endpoint secret for the `app_id` in the path.",
                        action: "Add the endpoint's `whsec_…` secret for the app to the secrets file and restart `ledger serve`; or fix the URL in Stripe's dashboard."),
            ProblemType("stripe_signature_missing", [400], "No Stripe-Signature header",
                        meaning: "The request has no `Stripe-Signature` header.",
                        action: "Only Stripe should call this URL; check that no proxy strips the header."),
            ProblemType("stripe_signature_malformed", [400], "The Stripe-Signature header is malformed",
                        meaning: "The header has no `t` or no `v1`, or a part that is not `key=value`, or a `v1` that is not 64 hex digits.",
                        action: "Only Stripe should call this URL; check that no proxy rewrites the header."),
            ProblemType("stripe_signature_stale", [400], "The signature's timestamp is too far from the clock",
                        meaning: "`t` is further than `LEDGER_STRIPE_WEBHOOK_TOLERANCE` (300 s) from the server's clock, either way: a replay, or a clock gone wrong.",
                        action: "Check the server's clock (NTP); Stripe retries the event with a fresh signature."),
            ProblemType("stripe_signature_mismatch", [400], "The signature does not match",
                        meaning: "No `v1` is the HMAC of the body under any of the app's endpoint secrets: a wrong or removed secret, a body changed on the way, or a forgery.",
                        action: "Check that the app's secret in `LEDGER_STRIPE_WEBHOOK_SECRETS` is this endpoint's current `whsec_…` (list both while rolling it), and that nothing re-encodes the body."),
            ProblemType("stripe_event_malformed", [400], "The body is not a Stripe event",
                        meaning: "The signed body is not one of Stripe's events: not a JSON object, an `id` that is not `evt_…`, no `type`, `created`, `livemode` or `data.object`, or a `data.object` without what its type needs.",
                        action: "Only Stripe's events are accepted here; check the endpoint's API version in Stripe's dashboard."),
            ProblemType("stripe_webhook_invalid", [400], "The webhook could not be read",
                        meaning: "The webhook failed to verify or decode for a reason without a code of its own; `detail` says what.",
                        action: "Read `detail`; if the event is genuine, report it with the answer's `X-Request-Id`."),
            ProblemType("stripe_mode_mismatch", [422], "A live event for a test app, or the reverse",
                        meaning: "The app runs on Stripe in test mode and the event is live (or the reverse).",
                        action: "Point each mode's Stripe endpoint at the app configured for that mode (`ledger admin app stripe set --mode`)."),
            ProblemType("stripe_account_mismatch", [422], "The event is of another Stripe account",
                        meaning: "The event's `account` is not the Stripe account the app runs on.",
                        action: "Fix the app's account (`ledger admin app stripe set --account acct_…`) or the endpoint's URL."),
            ProblemType("stripe_event_invalid", [422], "The event's amounts are impossible",
                        meaning: "An amount in the event is not one the ledger can record (negative or past its maximum), or a charge refunds more than its amount.",
                        action: "Report the event id to the ledger's operators; Stripe keeps retrying it meanwhile."),
        ])
}
