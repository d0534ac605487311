import EventStore
import LedgerDomain

/// An app as its own stream `app-<id>` tells it, folded from the log: what the catalog
/// commands judge a request against. The stream alone decides, so the commands need no
/// projection, and appending at `version` makes a concurrent change a conflict.
struct AppHistory {
    let appID: String
    /// The stream's last version, which the next append expects.
    private(set) var version: Int64 = 0
    private(set) var enabled = true
    /// Every key issued for the app, and which of them are revoked.
    private(set) var keys: [String: KeyMode] = [:]
    private(set) var revokedKeys: Set<String> = []
    /// The products in the catalog now.
    private(set) var products: [String: CatalogProduct] = [:]
    /// The last configuration of every product ever configured, removed or not (a purchase
    /// can be recorded late for a product withdrawn since).
    private(set) var configured: [String: CatalogProduct] = [:]
    private(set) var migration: MigrationCampaignConfig?
    private(set) var upgrade: UpgradeOfferConfig?
    /// Every campaign id ever configured.
    private(set) var campaignIDs: Set<String> = []

    /// Nil when the stream does not start with `app.created`: the app does not exist.
    init?(appID: String, events: [RecordedEvent]) throws {
        guard let first = events.first, first.type == AppCreated.type else { return nil }
        self.appID = appID
        for event in events { try apply(event) }
    }

    private mutating func apply(_ event: RecordedEvent) throws {
        version = event.streamVersion
        switch event.type {
        case AppKeyIssued.type:
            let e = try event.decode(AppKeyIssued.self)
            keys[e.keyID] = e.mode
        case AppKeyRevoked.type:
            revokedKeys.insert(try event.decode(AppKeyRevoked.self).keyID)
        case AppStatusChanged.type:
            enabled = try event.decode(AppStatusChanged.self).enabled
        case ProductConfigured.type:
            let product = try event.decode(ProductConfigured.self).product
            products[product.id] = product
            configured[product.id] = product
        case ProductRemoved.type:
            products[try event.decode(ProductRemoved.self).productID] = nil
        case MigrationCampaignConfigured.type:
            let campaign = try event.decode(MigrationCampaignConfigured.self).campaign
            migration = campaign
            campaignIDs.insert(campaign.campaignID)
        case UpgradeOfferConfigured.type:
            let campaign = try event.decode(UpgradeOfferConfigured.self).campaign
            upgrade = campaign
            campaignIDs.insert(campaign.campaignID)
        case CampaignEnded.type:
            // As the catalog projection reads it: the id ends whichever campaign holds it.
            let id = try event.decode(CampaignEnded.self).campaignID
            if migration?.campaignID == id { migration = nil }
            if upgrade?.campaignID == id { upgrade = nil }
        default:
            break // app.created, StoreKit prices and checkout decide nothing the commands check.
        }
    }

    /// A product in the catalog now, else a refusal naming it.
    func requireProduct(_ id: String) throws -> CatalogProduct {
        guard let product = products[id] else {
            let was = configured[id] != nil ? " (it was removed)" : ""
            throw AdminError(.notFound, "product \(id) is not in the catalog of app \(appID)\(was)")
        }
        return product
    }

    /// The active campaigns that name a product, as `kind id`.
    func campaigns(naming product: String) -> [String] {
        var out: [String] = []
        if let m = migration, m.productID == product || m.eligibleProductIDs.contains(product) {
            out.append("migration campaign \(m.campaignID)")
        }
        if let u = upgrade, u.upgradePaths.contains(where: { $0.fromProductID == product || $0.toProductID == product }) {
            out.append("upgrade campaign \(u.campaignID)")
        }
        return out
    }

    /// The active campaigns that sell a product on the web (a migration's product, an
    /// upgrade's target), which therefore needs a web price.
    func campaigns(selling product: String) -> [String] {
        var out: [String] = []
        if let m = migration, m.productID == product { out.append("migration campaign \(m.campaignID)") }
        if let u = upgrade, u.upgradePaths.contains(where: { $0.toProductID == product }) { out.append("upgrade campaign \(u.campaignID)") }
        return out
    }
}
