import LedgerDomain
import LedgerServices

/// `ledger admin webhook replay`: `webhook.replay_requested`; the subscription's messages
/// from `--from` on are sent again, in order, with their ids (the receiver deduplicates).
struct WebhookReplayAction: AdminAction {
    static let words = ["webhook", "replay"]
    static let synopsis = "--id ID --from N"
    static let summary = "Send a webhook's messages again from sequence number N on, in order (a receiver that lost them)."
    static let valued: Set<String> = ["id", "from"]

    let id: String
    let from: Int64

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
        guard let n = try options.count("from"), n > 0 else { throw UsageError("--from N is required, 1 or more") }
        from = n
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(WebhookDeliveryAct(id: id, .replay(from: from))))
    }
}
