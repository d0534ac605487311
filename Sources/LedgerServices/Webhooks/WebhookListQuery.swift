import LedgerDomain
import ProjectionEngine
import Projections

/// The webhook subscriptions, every one or those billed to one project (`ledger admin
/// webhook list`): where each sends, what it covers, whether it is active.
public struct WebhookListQuery: LedgerQuery {
    /// Only the subscriptions billed to this project; nil: every subscription.
    public var project: String?

    public init(project: String? = nil) { self.project = project }

    public var projections: [any Projection] { [WebhooksProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [WebhooksReadModel.Subscription]? {
        try reads.webhooks.subscriptions(project: project)
    }
}
