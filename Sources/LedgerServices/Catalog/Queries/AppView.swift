import LedgerDomain
import Projections

/// One app as an operator looks at it: its catalog exactly as the SDKs are served it, and
/// what they never see beside it.
public struct AppView: Sendable {
    /// Its name, when it was created, its publishable keys by prefix.
    public var app: CatalogSnapshot.AppRecord
    /// Its products, checkout and campaigns, as `GET /v1/iap/products` serves them.
    public var catalog: AppCatalog
    /// The catalog projection's position the catalog was read at.
    public var position: Int64
    /// Its offer impressions by campaign and variant, earlier campaigns' included.
    public var impressions: [CampaignImpressions]
    /// The purchases of the user asked; nil when none was.
    public var purchases: [UserPurchase]?

    public init(app: CatalogSnapshot.AppRecord, catalog: AppCatalog, position: Int64,
                impressions: [CampaignImpressions], purchases: [UserPurchase]?) {
        self.app = app
        self.catalog = catalog
        self.position = position
        self.impressions = impressions
        self.purchases = purchases
    }
}
