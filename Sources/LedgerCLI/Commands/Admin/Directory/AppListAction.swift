import LedgerDomain
import LedgerJSON
import Projections

/// `ledger admin app list`: every app of the catalog, enabled or not, with its keys.
struct AppListAction: AdminAction {
    static let words = ["app", "list"]
    static let synopsis = ""
    static let summary = "List the catalog's apps: id, name, bundle id, enabled, products, publishable keys."
    static let valued: Set<String> = []
    static let isOperatorAct = false

    init(_ options: AdminOptions) throws {}

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        try session.catchUp(CatalogProjection())
        let apps = try Self.apps(nil, session: session)
        let catalog = try CatalogSnapshot.load(pool: session.pool)
        var receipt = AdminReceipt()
        receipt.fields["apps"] = try JSONValueEncoder().encode(apps)
        receipt.lines = apps.isEmpty ? ["no apps"] : TextTable.lines(
            ["app", "name", "bundle_id", "enabled", "products", "keys"],
            apps.map { [$0.id, $0.name, $0.bundleID, $0.enabled ? "yes" : "no", String(catalog.apps[$0.id]?.products.count ?? 0),
                        String($0.keys.filter { !$0.revoked }.count)] },
            rightAligned: [4, 5])
        return receipt
    }

    /// One app's catalog as the SDKs are served it, once the IAP projection has reached the
    /// log's head; a refusal when there is no such app.
    static func catalog(_ app: String, session: AdminSession) throws -> AppCatalog {
        try session.catchUp(CatalogProjection())
        guard let catalog = try CatalogSnapshot.load(pool: session.pool).apps[app] else {
            throw AdminError(.notFound, "app \(app) does not exist")
        }
        return catalog
    }

    /// The apps (or one), or a refusal while the IAP projection does not exist.
    static func apps(_ id: String?, session: AdminSession) throws -> [CatalogSnapshot.AppRecord] {
        guard let apps = try CatalogSnapshot.apps(id: id, pool: session.pool) else {
            throw AdminError(.projectionUnavailable, "the IAP projection does not exist yet: start the projector (`ledger project`) and retry")
        }
        return apps
    }
}
