import LedgerDomain
import LedgerServices

/// `ledger admin webhook disable`: `webhook.subscription_disabled`; nothing more is sent.
struct WebhookDisableAction: AdminAction {
    static let words = ["webhook", "disable"]
    static let synopsis = "--id ID"
    static let summary = "Disable a webhook subscription: no message is sent to it any more."
    static let valued: Set<String> = ["id"]

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(WebhookChangeAct(id: id, .disable)))
    }
}
