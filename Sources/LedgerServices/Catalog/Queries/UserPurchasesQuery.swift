import LedgerDomain
import ProjectionEngine
import Projections

/// One user's purchases with an app, which the catalog's trial eligibility and campaign
/// targeting read (`GET /v1/iap/products?user_id=…`): StoreKit's synced transactions and
/// operators' corrections from the catalog, and the web subscriptions and purchases the
/// payment processor's facts tell of, read the same way. Read by the app's own
/// publishable key; a user with no purchases has an empty history, not a missing one.
public struct UserPurchasesQuery: LedgerQuery {
    public var app: String
    public var user: String

    public init(app: String, user: String) {
        self.app = app
        self.user = user
    }

    public var projections: [any Projection] { [CatalogProjection(), WebCheckoutProjection()] }
    public var subject: QuerySubject { .app(app) }
    public func read(_ reads: QueryReads) throws -> [UserPurchase]? {
        try CatalogSnapshot.purchases(app: app, user: user, connections: reads.connections)
            + WebCheckoutReadModel(connections: reads.connections).holdings(app: app, user: user).purchases
    }
}
