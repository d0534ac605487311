import LedgerDomain
import ProjectionEngine
import Projections

/// What a user holds now with an app, across StoreKit and the web (`EntitlementResolver`
/// over the catalog's purchases and the web checkout's facts): `GET /v1/iap/entitlements`,
/// the console's user page and `ledger admin user show` all read it here. nil when the
/// catalog has no such app; a user with nothing holds an empty list.
public struct EntitlementsQuery: LedgerQuery {
    public var app: String
    public var user: String
    /// The app's catalog when the caller holds it already (the API's in memory); read from
    /// the catalog projection otherwise.
    public var catalog: AppCatalog?

    public init(app: String, user: String, catalog: AppCatalog? = nil) {
        self.app = app
        self.user = user
        self.catalog = catalog
    }

    public var projections: [any Projection] { [CatalogProjection(), WebCheckoutProjection()] }
    public var subject: QuerySubject { .app(app) }

    public func read(_ reads: QueryReads) throws -> EntitlementsView? {
        guard let catalog = try catalog ?? CatalogSnapshot.load(connections: reads.connections).apps[app] else { return nil }
        let schemas = projections.map(\.schema)
        let positions = try reads.connections.read { try ProjectionSchema.progress(of: schemas, on: $0) }
        let position = schemas.map { positions[$0]?.position ?? 0 }.min() ?? 0
        let purchases = try CatalogSnapshot.purchases(app: app, user: user, connections: reads.connections)
        let web = try WebCheckoutReadModel(connections: reads.connections).holdings(app: app, user: user)
        let held = EntitlementResolver(catalog: catalog).entitlements(purchases: purchases, web: web, now: reads.now)
        return EntitlementsView(appID: app, userID: user, entitlements: held, asOf: reads.now, position: position, web: web)
    }
}

/// A user's entitlements with an app at one time, and the web holdings they came from
/// (which operators read in full: ended and refunded subscriptions too).
public struct EntitlementsView: Sendable {
    public var appID: String
    public var userID: String
    public var entitlements: [Entitlement]
    public var asOf: Timestamp
    /// The log position the answer reflects (the lesser of the two projections read).
    public var position: Int64
    public var web: WebHoldings
}
