import ProjectionEngine
import Projections

/// One app as the SDKs are served it (products with their prices, checkout, campaigns),
/// with what operators see beside it: its keys by prefix, the impressions counted for
/// each campaign and, when `user` is given, that user's purchases with it (`ledger admin
/// app show`, `product list`, `campaign list`, the console's app page). nil when the
/// catalog has no such app.
public struct AppQuery: LedgerQuery {
    public var id: String
    /// A user whose purchases with the app to read too (a round trip asked only then).
    public var user: String?

    public init(_ id: String, purchasesBy user: String? = nil) {
        self.id = id
        self.user = user
    }

    public var projections: [any Projection] { [CatalogProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> AppView? {
        let snapshot = try CatalogSnapshot.load(connections: reads.connections)
        guard let catalog = snapshot.apps[id], let record = try CatalogSnapshot.apps(id: id, connections: reads.connections)?.first else { return nil }
        let impressions = try CatalogSnapshot.impressions(app: id, connections: reads.connections) ?? []
        let purchases = try user.map { try CatalogSnapshot.purchases(app: id, user: $0, connections: reads.connections) }
        return AppView(app: record, catalog: catalog, position: snapshot.position,
                       impressions: CampaignImpressions.counted(impressions), purchases: purchases)
    }
}
