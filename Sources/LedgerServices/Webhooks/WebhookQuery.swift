import LedgerDomain
import ProjectionEngine
import Projections

/// One webhook subscription (`ledger admin webhook show`): where it sends, what it covers,
/// which secret generations sign its messages; nil when there is no such subscription.
public struct WebhookQuery: LedgerQuery {
    public var id: String

    public init(_ id: String) { self.id = id }

    public var projections: [any Projection] { [WebhooksProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> WebhooksReadModel.Subscription? {
        try reads.webhooks.subscriptions(id: id).first
    }
}
