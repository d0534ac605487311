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
        let refunds = try session.answer(AppStoreConsumptionRequestsQuery(org: id)) ?? []
        let current = view.current
        let source = current.source?.rawValue ?? "none"
        var receipt = AdminReceipt()
        receipt.fields["organization"] = try JSONValueEncoder().encode(org)
        receipt.fields["plan"] = .string(current.plan.rawValue)
        receipt.fields["plan_source"] = current.source.map { .string($0.rawValue) } ?? .null
        receipt.fields["subscriptions"] = .array(snapshot.plans.subscriptions.map {
            Self.withRefundRequests(Self.fields($0, snapshot: snapshot, now: now), refunds, of: $0.originalTransactionID)
        })
        let pending = view.pending
        receipt.fields["pending"] = pending.map { p in
            ["plan": .string(p.plan.rawValue), "source": p.source.map { .string($0.rawValue) } ?? .null, "from": .string(p.from.iso8601)]
        } ?? .null
        receipt.lines = ["organization \(org.id): \(org.name) (created at position \(org.position))",
                         "plan now: \(current.plan.rawValue), from \(source)",
                         "next change: " + (pending.map { "\($0.plan.rawValue) from \($0.source?.rawValue ?? "the default"), on \($0.from.iso8601)" } ?? "none"),
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
            let notes = ([s.status(at: now).rawValue] + s.notes).joined(separator: "; ")
            receipt.lines.append("App Store subscription \(s.originalTransactionID) (\(snapshot.environments[s.originalTransactionID] ?? "?")): \(latest); \(notes)")
            receipt.lines += Self.refundRequestLines(refunds, of: s.originalTransactionID)
        }
        // Why: the organization's and its subscriptions' events, with who and why (the
        // console's and `ledger log --org`'s read), the latest twenty.
        let history = try session.answer(TimelineQuery(.org(id), limit: 500))?.events ?? []
        receipt.lines.append("changes (latest \(min(20, history.count)) of \(history.count); `ledger log --org \(id)` for all):")
        for event in history.suffix(20).reversed() {
            let metadata = try? event.metadata()
            receipt.lines.append("  \(event.position)  \(event.occurredAt.iso8601)  \(event.type)  \(metadata?.actor.description ?? "")"
                                 + (metadata?.reason.map { "  (\($0))" } ?? ""))
        }
        return receipt
    }

    /// One subscription as the receipt's JSON shows it: the API's subscription fields
    /// (docs/appstore.md, "Lifecycle"), with its holder.
    static func fields(_ s: OrganizationPlans.Subscription, snapshot: OrganizationSnapshot, now: Timestamp) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var fields: [String: JSONValue] = [
            "original_transaction_id": .string(s.originalTransactionID), "holder": text(s.holder),
            "environment": text(snapshot.environments[s.originalTransactionID]), "product_id": text(s.latest?.productID),
            "plan": text(s.latest?.plan.rawValue), "expires_at": text(s.latest?.expires?.iso8601),
            "status": .string(s.status(at: now).rawValue), "ownership": text(s.latest?.ownership?.rawValue),
        ]
        fields["offer"] = s.latest?.offer.map { offer -> JSONValue in
            .object(["type": text(offer.kind?.rawValue), "code": .integer(Int64(offer.code)), "identifier": text(offer.identifier),
                     "discount_type": text(offer.discountType)])
        } ?? .null
        fields["price_increase"] = s.priceIncrease.map { p -> JSONValue in
            .object(["status": .string(p.status.rawValue), "signed_at": .string(p.signed.iso8601)])
        } ?? .null
        fields["renewal_extension"] = s.renewalExtension.map { r -> JSONValue in
            .object(["status": .string(r.outcome.rawValue), "signed_at": .string(r.signed.iso8601)])
        } ?? .null
        return .object(fields)
    }
}
