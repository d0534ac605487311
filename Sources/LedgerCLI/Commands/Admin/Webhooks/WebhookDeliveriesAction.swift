import Foundation
import LedgerJSON
import LedgerServices

/// `ledger admin webhook deliveries`: a subscription's attempts, newest first.
struct WebhookDeliveriesAction: AdminAction {
    static let words = ["webhook", "deliveries"]
    static let synopsis = "--id ID [--limit N]"
    static let summary = "List a webhook's delivery attempts, newest first: message, attempt, outcome, status or error, latency, the answer's length and SHA-256."
    static let valued: Set<String> = ["id", "limit"]
    static let isOperatorAct = false

    let id: String
    let limit: Int

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
        let n = try options.count("limit") ?? 50
        guard (1...1_000).contains(n) else { throw UsageError("--limit takes 1 to 1000") }
        limit = Int(n)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let attempts = try session.answerCaughtUp(WebhookDeliveriesQuery(id, limit: limit)) else {
            throw AdminError(.notFound, "webhook \(id) does not exist")
        }
        var receipt = AdminReceipt()
        receipt.fields["attempts"] = try JSONValueEncoder().encode(attempts)
        receipt.lines = attempts.isEmpty ? ["no delivery attempts yet"] : TextTable.lines(
            ["sequence", "attempt", "outcome", "answer", "ms", "at", "bytes", "sha256"],
            attempts.map { [String($0.sequence), String($0.attempt), $0.outcome, $0.status.map(String.init) ?? ($0.error ?? "-"),
                             String($0.latencyMilliseconds), $0.attemptedAt, $0.answerBytes.map(String.init) ?? "-", $0.answerSHA256 ?? "-"] },
            rightAligned: [0, 1, 4, 6])
        return receipt
    }
}
