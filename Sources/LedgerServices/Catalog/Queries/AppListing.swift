import Projections

/// One app in the operators' list: what the SDKs never see of it (its name, when it was
/// created, its keys by prefix) and how many products its catalog serves.
public struct AppListing: Sendable {
    public var app: CatalogSnapshot.AppRecord
    /// The products the catalog serves for it now (removed ones left out).
    public var products: Int

    public init(app: CatalogSnapshot.AppRecord, products: Int) {
        self.app = app
        self.products = products
    }
}
