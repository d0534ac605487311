import EventStore
import LedgerDomain
import Webhooks

/// The stream `webhook-<id>`: read whole before a command changes a subscription, and
/// appended to at the version that was read.
enum WebhookStream {
    static func load(_ id: String, session: AdminSession) throws -> (subscription: WebhookDecider.Subscription?, version: Int64) {
        let events = try session.services.store.readStream(WebhookDecider.stream(id))
        let subscription = try WebhookDecider.Subscription(id: id, stream: events.map { (type: $0.type, data: try $0.data()) })
        return (subscription, events.last?.streamVersion ?? 0)
    }

    /// The key secrets are derived from, or a refusal saying how to configure it.
    static func secrets(_ session: AdminSession) throws -> WebhookSecrets {
        guard let secrets = session.services.webhookSecrets else {
            throw AdminError(.configuration, "no webhook key: set LEDGER_WEBHOOK_KEY (at least 32 characters), the key every subscription's secret is derived from")
        }
        return secrets
    }
}
