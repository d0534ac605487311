import LedgerDomain
import LedgerJSON
import Outbound
import Projections

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
        let secrets = try WebhookStream.secrets(session)
        do { _ = try session.services.outboundPolicy.check(url: url) } catch {
            throw AdminError(.refusedURL, "--url: \(error.message)")
        }
        let accounts = try session.accountsState(payers: subjects.filter { $0.kind == .payer }.map(\.id),
                                                 projects: [project] + subjects.filter { $0.kind == .project }.map(\.id))
        var known = Set(accounts.payers.map { WebhookSubject(.payer, $0) } + accounts.projects.map { WebhookSubject(.project, $0) })
        for subject in subjects where subject.kind == .org {
            if try !OrganizationsReadModel(pool: session.pool).organizations(id: subject.id).isEmpty { known.insert(subject) }
        }
        for subject in subjects where subject.kind == .app {
            if try !(CatalogSnapshot.apps(id: subject.id, pool: session.pool) ?? []).isEmpty { known.insert(subject) }
        }
        let decision = try session.decide {
            try WebhookDecider.add(id: id, project: project, url: url, subjects: subjects, types: types, balanceLowThreshold: threshold,
                                   projectExists: accounts.projects.contains(project), known: known)
        }
        let stream = WebhookDecider.stream(id)
        var receipt = AdminReceipt(events: try session.append(decision, refusal: AdminSession.whenExists(stream,
            AdminError(.alreadyExists, "webhook \(id) already exists"))))
        let secret = secrets.secret(webhook: id, generation: 1)
        receipt.fields["secret"] = .string(secret)
        receipt.fields["warning"] = .string(Self.warning)
        receipt.lines = ["signing secret: \(secret)", Self.warning]
        return receipt
    }

    static let warning = "Give the secret to the receiver now: messages carry Ledger-Signature made with it (docs/webhooks.md). Rotate with `ledger admin webhook rotate-secret`."
}
