import LedgerDomain
import ProjectionEngine
import Projections

/// A subscription's last delivery attempts, newest first (`ledger admin webhook
/// deliveries`): what was sent, what the endpoint answered and how fast; nil when there is
/// no such subscription (rather than an empty list that hides a mistyped id).
public struct WebhookDeliveriesQuery: LedgerQuery {
    public var id: String
    public var limit: Int

    public init(_ id: String, limit: Int) {
        precondition(limit >= 1, "a page of attempts holds at least one")
        self.id = id
        self.limit = limit
    }

    public var projections: [any Projection] { [WebhooksProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [WebhooksReadModel.Attempt]? {
        guard try !reads.webhooks.subscriptions(id: id).isEmpty else { return nil }
        return try reads.webhooks.attempts(webhook: id, limit: limit)
    }
}
