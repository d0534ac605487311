import Crypto

/// Each subscription's signing secret, derived from the service's webhook key: the log
/// records only a subscription's secret generation, never a secret, so that the log
/// (which auditors and backups hold) cannot sign a message. A secret is
/// `whsec_` and the base64url of HMAC-SHA256(key, "ledger-webhook-secret\nID\nGENERATION").
public struct WebhookSecrets: Sendable {
    private let key: [UInt8]

    /// `key`: LEDGER_WEBHOOK_KEY's bytes (at least 32).
    public init(key: [UInt8]) {
        precondition(key.count >= 32, "the webhook key must be at least 32 bytes")
        self.key = key
    }

    public func secret(webhook id: String, generation: Int64) -> String {
        "whsec_" + Base64URL.encode(HMAC.sha256(key: key, data: Array("ledger-webhook-secret\n\(id)\n\(generation)".utf8)))
    }

    /// The secrets a message sent at `now` (Unix microseconds) is signed with: the current
    /// generation's, and the previous one's while a rotation's overlap lasts.
    public func signing(webhook id: String, generation: Int64, previousValidUntil: Int64?, now: Int64) -> [String] {
        var secrets = [secret(webhook: id, generation: generation)]
        if generation > 1, let until = previousValidUntil, now < until {
            secrets.append(secret(webhook: id, generation: generation - 1))
        }
        return secrets
    }
}
