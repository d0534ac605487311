import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin org show`: one organization, the plan it is on now and where that plan
/// comes from, and its App Store subscriptions: the answer to "why is this customer on
/// this plan?".
struct OrgShowAction: AdminAction {
    static let words = ["org", "show"]
    static let synopsis = "--id ID"
    static let summary = "Show an organization: its plan now and the source of it, every plan change, its App Store subscriptions, admins."
    static let valued: Set<String> = ["id"]
    static let isOperatorAct = false

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "organization")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let view = try session.answerCaughtUp(OrganizationQuery(id)) else {
            throw AdminError(.notFound, "organization \(id) does not exist")
        }
        let (org, snapshot, now) = (view.organization, view.snapshot, view.at)
        let current = view.current
        let source = current.source?.rawValue ?? "none"
        var receipt = AdminReceipt()
        receipt.fields["organization"] = try JSONValueEncoder().encode(org)
        receipt.fields["plan"] = .string(current.plan.rawValue)
        receipt.fields["plan_source"] = current.source.map { .string($0.rawValue) } ?? .null
        receipt.fields["subscriptions"] = .array(snapshot.plans.subscriptions.map { s in
            .object(["original_transaction_id": .string(s.originalTransactionID), "holder": s.holder.map(JSONValue.string) ?? .null,
                     "environment": snapshot.environments[s.originalTransactionID].map(JSONValue.string) ?? .null,
                     "product_id": s.latest.map { .string($0.productID) } ?? .null,
                     "plan": s.latest.map { .string($0.plan.rawValue) } ?? .null,
                     "expires_at": s.latest?.expires.map { .string($0.iso8601) } ?? .null,
                     "status": .string(s.status(at: now).rawValue)])
        })
        receipt.lines = ["organization \(org.id): \(org.name) (created at position \(org.position))",
                         "plan now: \(current.plan.rawValue), from \(source)",
                         "education: \(OrgListAction.education(view.education))",
                         "admins: " + (org.admins.isEmpty ? "none" : org.admins.joined(separator: ", "))]
        for (name, timeline) in [("staff", snapshot.plans.staff), ("billing", snapshot.plans.billing)] {
            // Segments, not raw changes: a downgrade takes effect when the month ends (O-rules).
            for segment in timeline.segments {
                receipt.lines.append("  \(name): \(segment.plan?.rawValue ?? "none") from \(segment.from.iso8601)")
            }
        }
        for s in snapshot.plans.subscriptions {
            let latest = s.latest.map { "\($0.productID) (\($0.plan.rawValue)), expires \($0.expires?.iso8601 ?? "-")" } ?? "no transaction"
            receipt.lines.append("App Store subscription \(s.originalTransactionID) (\(snapshot.environments[s.originalTransactionID] ?? "?")): \(latest)")
        }
        return receipt
    }
}
