extension ProblemTypes {
    /// The IAP catalog surface's codes (`/v1/iap/*`, the seed's `Error` shape), which the
    /// promotional offer signature also answers for its key, as problems.
    static let catalog = ProblemTypeGroup(
        name: "IAP catalog: products, entitlements, transaction sync", anchor: "iap-catalog-products-entitlements-transaction-sync",
        summary: "Routes under `/v1/iap/`, called by the SDKs with a publishable key (`X-ZeroSettle-Key: zs_pk_test_…|zs_pk_live_…`). Errors here are the seed's `{\"error\": \"…\", \"code\": \"…\"}`, which has no `type`: look the `code` up on this page.",
        types: [
            ProblemType("missing_api_key", [401], "No publishable key",
                        meaning: "The request has no `X-ZeroSettle-Key` header (or an empty one). Nothing was recorded.",
                        action: "Send the app's publishable key in `X-ZeroSettle-Key`."),
            ProblemType("invalid_api_key", [401], "Not a publishable key of any app",
                        meaning: "The `X-ZeroSettle-Key` is not the publishable key of any app. Nothing was recorded.",
                        action: "Check the key against the one `ledger admin app key issue` printed (test keys start `zs_pk_test_`, live keys `zs_pk_live_`)."),
            ProblemType("api_key_revoked", [403], "The publishable key was revoked",
                        meaning: "The key belonged to the app but has been revoked. Nothing was recorded.",
                        action: "Ship the app's current key (an operator issues one with `ledger admin app key issue`)."),
            ProblemType("app_disabled", [403], "The app is disabled",
                        meaning: "The key's app has been disabled by an operator; its catalog is not served. Nothing was recorded.",
                        action: "Ask the ledger's operators; an operator enables the app again with `ledger admin app enable`."),
            ProblemType("invalid_request", [400], "`user_id` is missing or invalid",
                        meaning: "`user_id` (a query parameter, or a member of the transaction sync's body) is missing where it is required, empty, longer than 256 bytes, or holds control characters. Nothing was recorded.",
                        action: "Send the app's own id of the user, 1 to 256 bytes without control characters."),
            ProblemType("invalid_transaction", [422], "The transaction is not accepted",
                        meaning: "The `jws_representation` does not verify (a bad signature or chain, another app's bundle ID, an environment not accepted here), or the ledger refuses it (a Production transaction synced with a test key). `error` says which. Nothing was recorded.",
                        action: "Send `Transaction.jwsRepresentation` exactly as StoreKit 2 gave it, with the key of the matching mode (live for Production)."),
            ProblemType("transaction_conflict", [409], "The transaction was synced for another user",
                        meaning: "This transaction id was synced before for a different `user_id`; the first sync stands. Nothing was recorded.",
                        action: "Sync a transaction only for the user who bought it; the same transaction with the same user is answered as already recorded."),
        ])
}
