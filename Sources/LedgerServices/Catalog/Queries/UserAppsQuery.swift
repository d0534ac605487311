import ProjectionEngine
import Projections

/// The apps a user id has purchases with, and how many, at most `limit` apps (the
/// console's search): an operator looking for a customer knows the user id, not the app.
public struct UserAppsQuery: LedgerQuery {
    public var user: String
    public var limit: Int

    public init(user: String, limit: Int = 50) {
        self.user = user
        self.limit = limit
    }

    public var projections: [any Projection] { [CatalogProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [(appID: String, purchases: Int64)]? {
        try CatalogSnapshot.apps(withPurchasesBy: user, limit: limit, pool: reads.pool)
    }
}
