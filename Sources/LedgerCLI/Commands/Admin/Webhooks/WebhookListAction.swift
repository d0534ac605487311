import LedgerJSON
import LedgerServices

/// `ledger admin webhook list`: every subscription, or one project's.
struct WebhookListAction: AdminAction {
    static let words = ["webhook", "list"]
    static let synopsis = "[--project ID]"
    static let summary = "List webhook subscriptions: id, project billed, URL, subjects, types, active, secret generation."
    static let valued: Set<String> = ["project"]
    static let isOperatorAct = false

    let project: String?

    init(_ options: AdminOptions) throws {
        project = try options.optionalIdentifier("project", "project")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let subscriptions = try session.answerCaughtUp(WebhookListQuery(project: project)) ?? []
        var receipt = AdminReceipt()
        receipt.fields["webhooks"] = try JSONValueEncoder().encode(subscriptions)
        receipt.lines = subscriptions.isEmpty ? ["no webhook subscriptions"] : TextTable.lines(
            ["webhook", "project", "url", "subjects", "types", "active", "generation"],
            subscriptions.map { [$0.id, $0.projectID, $0.url, $0.subjects.joined(separator: ","),
                                 $0.types.isEmpty ? "all" : $0.types.joined(separator: ","), $0.active ? "yes" : "no", String($0.generation)] },
            rightAligned: [6])
        return receipt
    }
}
