extension ProblemTypes {
    /// `POST /v1/appstore/offers/signature`'s own codes (it answers the catalog's key codes
    /// too, as problems).
    static let promotionalOffers = ProblemTypeGroup(
        name: "App Store promotional offer signatures", anchor: "app-store-promotional-offer-signatures",
        summary: "`POST /v1/appstore/offers/signature`, called with the app's publishable key; answers are RFC 9457 problems, its key's codes (`missing_api_key`, `invalid_api_key`, `api_key_revoked`, `app_disabled`) included. A signature is never recorded, so no answer here records anything.",
        types: [
            ProblemType("invalid_product_id", [400], "`product_id` is not an identifier",
                        meaning: "`product_id` is not a string of 1 to 200 printable ASCII characters without spaces.",
                        action: "Send the subscription's product ID from App Store Connect."),
            ProblemType("invalid_offer_id", [400], "`offer_id` is not an identifier",
                        meaning: "`offer_id` is not a string of 1 to 200 printable ASCII characters without spaces (the signed payload could not carry it unambiguously).",
                        action: "Send the promotional offer's identifier from App Store Connect."),
            ProblemType("invalid_app_account_token", [400], "`app_account_token` is not a UUID",
                        meaning: "`app_account_token` is present but neither a UUID nor an empty string.",
                        action: "Send the purchase's `appAccountToken` as a UUID, or omit it."),
            ProblemType("invalid_nonce", [400], "`nonce` is not a UUID",
                        meaning: "`nonce` is present but not a string holding a UUID.",
                        action: "Send a UUID, or omit `nonce` to have the server make one."),
            ProblemType("invalid_timestamp", [400], "`timestamp` is not Unix milliseconds",
                        meaning: "`timestamp` is present but not a JSON integer of Unix milliseconds, 0 or more.",
                        action: "Send whole Unix milliseconds, or omit `timestamp` to have the server's clock."),
            ProblemType("unknown_product", [422], "Not a product of this app",
                        meaning: "`product_id` is not in the catalog of the key's app (another app's products are never revealed).",
                        action: "Check the product ID against the app's catalog (`GET /v1/iap/products`)."),
            ProblemType("not_a_subscription", [422], "Not an auto-renewable subscription",
                        meaning: "The product exists but is not an auto-renewable subscription, the only kind promotional offers apply to.",
                        action: "Ask for offers of the app's auto-renewable subscriptions only."),
            ProblemType("timestamp_out_of_window", [422], "`timestamp` is too far from the server's clock",
                        meaning: "The `timestamp` sent is more than 300 seconds from the server's clock.",
                        action: "Fix the device's clock, or omit `timestamp` to have the server's."),
            ProblemType("offer_key_not_configured", [503], "No promotional offer key for this app",
                        meaning: "No promotional offer key is configured for the app's bundle ID (`LEDGER_APPSTORE_OFFER_KEYS`): the deployment, not the request, lacks it. `Retry-After` is 600 seconds, since nothing changes before an operator adds the key and restarts the service.",
                        action: "Ask the ledger's operators to add the App Store Connect offer key for the bundle ID; retry later."),
        ])
}
