import WebhookSigning

extension AdminSession {
    /// The key every subscription's secret is derived from, or a refusal saying how to
    /// configure it.
    func webhookSecrets() throws -> WebhookSecrets {
        guard let secrets = services.webhookSecrets else {
            throw AdminError(.configuration, "no webhook key: set LEDGER_WEBHOOK_KEY (at least 32 characters), the key every subscription's secret is derived from")
        }
        return secrets
    }
}
