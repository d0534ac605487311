import LedgerDomain
import LedgerServices
import LedgerJSON
import Outbound

/// `ledger admin webhook add`: `webhook.subscription_added` on a new `webhook-<id>`, and
/// the subscription's signing secret, printed once.
struct WebhookAddAction: AdminAction {
    static let words = ["webhook", "add"]
    static let synopsis = "--id ID --project ID --url URL --subject KIND:ID ... [--type TYPE ...] [--balance-low-threshold A]"
    static let summary = "Subscribe a URL to messages about subjects (project:, payer:, org:, app:); attempts are billed to --project (U4)."
    static let valued: Set<String> = ["id", "project", "url", "subject", "type", "balance-low-threshold"]
    static let repeatable: Set<String> = ["subject", "type"]

    let id: String
    let project: String
    let url: String
    let subjects: [WebhookSubject]
    let types: [String]
    let threshold: Millicredits?

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "webhook")
        project = try options.identifier("project", "project")
        url = try options.text("url", maximumLength: 2_000)
        let subjectTexts = options.arguments.values("subject")
        guard !subjectTexts.isEmpty else { throw UsageError("--subject KIND:ID is required (project:, payer:, org: or app:), one or more") }
        subjects = try subjectTexts.map { text in
            guard let subject = WebhookSubject(text), Identifier.isValid(subject.id) else {
                throw UsageError("--subject \(text.debugDescription) is not project:ID, payer:ID, org:ID or app:ID")
            }
            return subject
        }
        types = options.arguments.values("type")
        threshold = try options.optionalAmount("balance-low-threshold", .nonNegative)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let secrets = try session.webhookSecrets()
        do { _ = try session.services.outboundPolicy.check(url: url) } catch {
            throw AdminError(.refusedURL, "--url: \(error.message)")
        }
        var receipt = AdminReceipt(events: try session.perform(WebhookAddAct(id: id, project: project, url: url, subjects: subjects,
                                                                            types: types, balanceLowThreshold: threshold)))
        let secret = secrets.secret(webhook: id, generation: 1)
        receipt.fields["secret"] = .string(secret)
        receipt.fields["warning"] = .string(Self.warning)
        receipt.lines = ["signing secret: \(secret)", Self.warning]
        return receipt
    }

    static let warning = "Give the secret to the receiver now: messages carry Ledger-Signature made with it (docs/webhooks.md). Rotate with `ledger admin webhook rotate-secret`."
}
