import WebhookSigning

/// A `v1` for a test's own bodies, through the ledger's signer of the same scheme (the
/// verifier's own vectors are the ones pasted in `StripeWebhookVerifierTests`).
enum StripeTestSignature {
    static func v1(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        let value = WebhookSignature.value(timestamp: timestamp, body: body, secrets: [secret])
        return String(value.split(separator: ",")[1].dropFirst(3))
    }
}
