import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin webhook show`: one subscription, and which secrets sign its messages now.
struct WebhookShowAction: AdminAction {
    static let words = ["webhook", "show"]
    static let synopsis = "--id ID"
    static let summary = "Show a webhook subscription: where it sends, what it covers, which secret generations sign now."
    static let valued: Set<String> = ["id"]
    static let isOperatorAct = false

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let s = try session.answerCaughtUp(WebhookQuery(id)) else {
            throw AdminError(.notFound, "webhook \(id) does not exist")
        }
        var receipt = AdminReceipt()
        receipt.fields["webhook"] = try JSONValueEncoder().encode(s)
        var signing = "signed with secret generation \(s.generation)"
        if let until = s.previousValidUntil, s.generation > 1, until > session.now.microseconds {
            signing += " and \(s.generation - 1) until \((Timestamp(microseconds: until) ?? .minimum).iso8601)"
        }
        receipt.lines = ["webhook \(s.id): \(s.active ? "active" : "disabled"), sends to \(s.url) (added at position \(s.position))",
                         "billed to project \(s.projectID) (U4)",
                         "subjects: " + s.subjects.joined(separator: ", "),
                         "types: " + (s.types.isEmpty ? "all" : s.types.joined(separator: ", ")),
                         signing]
        if let threshold = s.balanceLowThreshold { receipt.lines.append("balance.low below \(threshold) millicredits") }
        return receipt
    }
}
