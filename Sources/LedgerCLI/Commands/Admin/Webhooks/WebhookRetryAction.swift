import LedgerDomain
import LedgerServices

/// `ledger admin webhook retry`: `webhook.delivery_retried`; a dead message is sent again.
struct WebhookRetryAction: AdminAction {
    static let words = ["webhook", "retry"]
    static let synopsis = "--id ID --sequence N"
    static let summary = "Send a dead webhook message again (one that was not delivered for three days)."
    static let valued: Set<String> = ["id", "sequence"]

    let id: String
    let sequence: Int64

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
        guard let n = try options.count("sequence"), n > 0 else { throw UsageError("--sequence N is required, 1 or more") }
        sequence = n
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(WebhookDeliveryAct(id: id, .retry(sequence: sequence))))
    }
}
