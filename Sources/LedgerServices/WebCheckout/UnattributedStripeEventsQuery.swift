import LedgerDomain
import ProjectionEngine
import Projections

/// The payment processor's facts that name no user and share no Stripe id with one that
/// does (W3), newest first: recorded, never dropped, and shown to operators to attribute
/// (`ledger stripe unattributed`, the console's web checkout page).
public struct UnattributedStripeEventsQuery: LedgerQuery {
    public var app: String?
    public var limit: Int

    public init(app: String? = nil, limit: Int = 100) {
        self.app = app
        self.limit = limit
    }

    public var projections: [any Projection] { [WebCheckoutProjection()] }
    public var subject: QuerySubject { app.map(QuerySubject.app) ?? .ledger }

    public func read(_ reads: QueryReads) throws -> [UnattributedStripeEvent]? {
        try WebCheckoutReadModel(connections: reads.connections).unattributed(app: app, limit: limit).map {
            UnattributedStripeEvent(position: $0.position, event: $0.event)
        }
    }
}

/// One Stripe event no user could be found for.
public struct UnattributedStripeEvent: Sendable {
    public var position: Int64
    public var event: StripeEventRecorded
}
