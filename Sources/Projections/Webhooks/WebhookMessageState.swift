import EventStore
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine

/// The subject's state right after a message's event (`state` in every message), read
/// from the projections that own it as they were at the event's position, so that a
/// message sent again, or read in the feed later, carries the same state. A message is
/// only built once those projections have folded its event (`readyThrough`).
public struct WebhookMessageState: Sendable {
    public let connections: PostgresPool

    public init(connections: PostgresPool) { self.connections = connections }

    /// The position through which every projection a state is read from has folded.
    public func readyThrough() throws -> Int64 {
        let schemas = [BillingProjection().schema, OrganizationsProjection().schema]
        return try connections.read { conn -> Int64 in
            var ready = Int64.max
            for schema in schemas { ready = min(ready, try ProjectionSchema.progress(schema, on: conn)?.position ?? 0) }
            return ready
        }
    }

    public func state(type: String, subject text: String, event: RecordedEvent) throws -> JSONValue {
        guard let subject = WebhookSubject(text) else { return .object([:]) }
        let data = try event.data()
        switch subject.kind {
        case .org:
            guard let org = try OrganizationsReadModel(connections: connections).snapshot(subject.id, through: event.position) else { return .object([:]) }
            let now = org.plans.current(at: event.recordedAt)
            var state: [String: JSONValue] = [
                "plan": .object(["current": .string(now.plan.rawValue), "source": now.source.map { .string($0.rawValue) } ?? .null]),
            ]
            if let original = data["original_transaction_id"]?.stringValue,
               let s = org.plans.subscriptions.first(where: { $0.originalTransactionID == ExternalID.value(original) }) {
                state["subscription"] = .object([
                    "original_transaction_id": .string(original),
                    "environment": org.environments[s.originalTransactionID].map(JSONValue.string) ?? .null,
                    "product_id": s.latest.map { .string($0.productID) } ?? .null,
                    "plan": s.latest.map { .string($0.plan.rawValue) } ?? .null,
                    "expires_at": s.latest?.expires.map { .string($0.iso8601) } ?? .null,
                    "status": .string((Self.ending(type: type, event: event.type, data: data)?.status ?? s.status(at: event.recordedAt)).rawValue),
                ])
            }
            return .object(state)
        case .payer, .project:
            let posted = try BillingReadModel(connections: connections).posted(account: subject.description, through: event.position)
            var state: [String: JSONValue] = ["balance": .object(["posted": .string(posted.description)])]
            if type == WebhookMessageType.planChanged.rawValue {
                state["plan"] = .object(["name": data["plan"] ?? .null, "allowance_storage_bytes": data["allowance_storage_bytes"] ?? .null])
            }
            if type == WebhookMessageType.usageMonthSummary.rawValue,
               let line = data["charges"]?.arrayValue?.first(where: { $0["project_id"]?.stringValue == subject.id }) {
                state["month"] = data["month"] ?? .null
                state["charge"] = line
            }
            return .object(state)
        case .app:
            return .object([:])
        }
    }

    /// How the event of a `subscription.refunded` or `subscription.expired` message ended the
    /// subscription: what the message is about, even when a fact Apple signed later (delivered
    /// first) has renewed it since. An end says it in its `reason`; a revoked transaction by
    /// who held it (docs/appstore.md, "Lifecycle").
    static func ending(type: String, event: String, data: JSONValue) -> SubscriptionFact.Ending? {
        guard type == WebhookMessageType.subscriptionRefunded.rawValue || type == WebhookMessageType.subscriptionExpired.rawValue else {
            return nil
        }
        if event == AppStoreSubscriptionEnded.type { return SubscriptionFact.Ending(reason: data["reason"]?.stringValue ?? "") }
        let shared = data["in_app_ownership_type"]?.stringValue.flatMap(AppStoreOwnership.init(apple:)) == .familyShared
        return shared ? .revoked : .refunded
    }
}
