import ProjectionEngine
import Projections

/// Every app of the IAP catalog, enabled or not, as operators list them (`ledger admin
/// app list`, the console's catalog). nil before the projector has created the catalog
/// projection, so that a surface can say "start the projector" rather than "no apps".
public struct AppsQuery: LedgerQuery {
    public init() {}

    public var projections: [any Projection] { [CatalogProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [AppListing]? {
        guard let apps = try CatalogSnapshot.apps(connections: reads.connections) else { return nil }
        let catalog = try CatalogSnapshot.load(connections: reads.connections)
        return apps.map { AppListing(app: $0, products: catalog.apps[$0.id]?.products.count ?? 0) }
    }
}
