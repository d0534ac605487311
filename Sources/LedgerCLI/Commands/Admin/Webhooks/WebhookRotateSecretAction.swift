import LedgerDomain
import LedgerServices
import LedgerJSON

/// `ledger admin webhook rotate-secret`: `webhook.secret_rotated`, and the new secret,
/// printed once; messages carry both signatures while the old secret stays valid.
struct WebhookRotateSecretAction: AdminAction {
    static let words = ["webhook", "rotate-secret"]
    static let synopsis = "--id ID [--overlap-hours N]"
    static let summary = "Give a webhook a new signing secret; the old one also signs for --overlap-hours (default 24, 0 to 720)."
    static let valued: Set<String> = ["id", "overlap-hours"]

    let id: String
    let overlapHours: Int64

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
        overlapHours = try options.count("overlap-hours") ?? 24
        guard overlapHours <= 720 else { throw UsageError("--overlap-hours takes 0 to 720") }
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let secrets = try session.webhookSecrets()
        let events = try session.perform(WebhookChangeAct(id: id, .rotateSecret(overlap: overlapHours * 3_600_000_000)))
        // What the log holds (a rerun under the same key is answered from it), not what was decided now.
        let rotated = try JSONValueDecoder().decode(WebhookSecretRotated.self, from: events[0].data)
        var receipt = AdminReceipt(events: events)
        let secret = secrets.secret(webhook: id, generation: rotated.generation)
        receipt.fields["secret"] = .string(secret)
        receipt.fields["previous_valid_until"] = .string(rotated.previousValidUntil.iso8601)
        receipt.lines = ["new signing secret: \(secret)",
                         "the previous secret also signs until \(rotated.previousValidUntil.iso8601): switch the receiver before then"]
        return receipt
    }
}
