extension ProblemTypes {
    /// The App Store surface's codes: the organization's offer and transactions (a signed-in
    /// person's session) and App Store Server Notifications V2 (spec rules O, T, N).
    static let appStore = ProblemTypeGroup(
        name: "App Store: offer, transactions, notifications", anchor: "app-store-offer-transactions-notifications",
        summary: "`/v1/orgs/{org_id}/appstore/*`, called by the app for a signed-in person (session cookie, the app's origin, `X-CSRF-Token`), and `/v1/appstore/notifications/*`, called by Apple. Answers are RFC 9457 problems.",
        types: [
            ProblemType("cross_origin", [403], "The request does not come from the app's origin",
                        meaning: "A write names an `Origin` other than the app's, or names none and is not same-origin (`Sec-Fetch-Site`). Nothing was recorded.",
                        action: "Send writes from the app's own origin, as a browser does."),
            ProblemType("csrf_failed", [403], "The CSRF token is missing or wrong",
                        meaning: "A write lacks the `X-CSRF-Token` header, or it does not match the session's `csrf` claim. Nothing was recorded.",
                        action: "Send the session's CSRF token in `X-CSRF-Token`."),
            ProblemType("app_store_transaction_invalid", [422], "The signed transaction or notification is not accepted",
                        meaning: "The JWS does not verify (`detail` starts with the verifier's reason: `bad_signature`, `untrusted_chain`, `bundle_mismatch`, `environment_not_allowed`, `malformed_jws`, …), or it names a product that is not a plan of the app, or a notification came to the URL of the other environment, or the transaction was recorded before with other content. Nothing was recorded.",
                        action: "Send the signed transaction exactly as StoreKit 2 gave it; point Apple's production and sandbox notification URLs at `…/production` and `…/sandbox`."),
            ProblemType("app_store_account_mismatch", [409], "The transaction belongs to another organization",
                        meaning: "The transaction's `appAccountToken` is not this organization's account token. Nothing was recorded.",
                        action: "Buy with the `account_token` the organization's offer (`GET …/appstore/offer`) gives, and record it for that organization."),
            ProblemType("education_not_eligible", [403], "Not eligible for the education plan",
                        meaning: "The transaction buys the education plan, and the organization is not eligible for it. Nothing was recorded.",
                        action: "Offer the education plan only when the organization's offer has `education_eligible: true`."),
            ProblemType("app_store_plan_conflict", [409], "The organization holds this plan another way",
                        meaning: "The organization already holds this plan, or a higher one, through another App Store subscription, a staff grant or web billing. Nothing was recorded.",
                        action: "Show the organization's current plan (its offer) rather than selling it again."),
            ProblemType("billed_by_reseller", [409], "A reseller pays this organization's plan",
                        meaning: "The organization is delegated to a reseller, which pays its plan; it cannot buy one through the App Store. Nothing was recorded.",
                        action: "Do not offer App Store purchases to this organization: its offer (`GET …/appstore/offer`) has `delegated_to_reseller: true`."),
            ProblemType("rate_limited", [429], "Too many requests that do not verify",
                        meaning: "This address sent too many notifications (or Stripe webhooks) that do not decode or verify. Only those count: a request that verifies is never refused for load. Nothing was recorded.",
                        action: "Wait `Retry-After` seconds; then send only signed payloads that verify."),
        ])
}
