import LedgerJSON

/// An app of the IAP catalog as its own stream `app-<id>` tells it: what the catalog
/// decider judges a command against. The stream alone decides, so no projection is
/// needed, and a decision expects the stream at `version`: a concurrent change makes it
/// a conflict.
public struct AppState: Sendable {
    public let appID: String
    /// The stream's last version, which the next append expects.
    public private(set) var version: Int64 = 0
    public private(set) var enabled = true
    /// Every key issued for the app, and which of them are revoked.
    public private(set) var keys: [String: KeyMode] = [:]
    public private(set) var revokedKeys: Set<String> = []
    /// The products in the catalog now.
    public private(set) var products: [String: CatalogProduct] = [:]
    /// The last configuration of every product ever configured, removed or not (a purchase
    /// can be recorded late for a product withdrawn since).
    public private(set) var configured: [String: CatalogProduct] = [:]
    public private(set) var migration: MigrationCampaignConfig?
    public private(set) var upgrade: UpgradeOfferConfig?
    /// Every campaign id ever configured.
    public private(set) var campaignIDs: Set<String> = []
    /// The Stripe account and mode its web checkout runs on, once configured.
    public private(set) var stripe: (accountID: String, mode: KeyMode)?

    /// One event of the stream.
    public struct Record: Sendable {
        public var type: String
        public var data: JSONValue
        public var streamVersion: Int64
        public init(type: String, data: JSONValue, streamVersion: Int64) {
            self.type = type
            self.data = data
            self.streamVersion = streamVersion
        }
    }

    /// Folds the stream, oldest first; nil when it does not start with `app.created`: the
    /// app does not exist.
    public init?(appID: String, stream: [Record]) throws {
        guard let first = stream.first, first.type == AppCreated.type else { return nil }
        self.appID = appID
        for record in stream { try evolve(record) }
    }

    private mutating func evolve(_ record: Record) throws {
        func decode<E: DomainEvent>(_ type: E.Type) throws -> E { try JSONValueDecoder().decode(E.self, from: record.data) }
        version = record.streamVersion
        switch record.type {
        case AppKeyIssued.type:
            let e = try decode(AppKeyIssued.self)
            keys[e.keyID] = e.mode
        case AppKeyRevoked.type:
            revokedKeys.insert(try decode(AppKeyRevoked.self).keyID)
        case AppStatusChanged.type:
            enabled = try decode(AppStatusChanged.self).enabled
        case AppStripeConfigured.type:
            let e = try decode(AppStripeConfigured.self)
            stripe = (e.accountID, e.mode)
        case ProductConfigured.type:
            let product = try decode(ProductConfigured.self).product
            products[product.id] = product
            configured[product.id] = product
        case ProductRemoved.type:
            products[try decode(ProductRemoved.self).productID] = nil
        case MigrationCampaignConfigured.type:
            let campaign = try decode(MigrationCampaignConfigured.self).campaign
            migration = campaign
            campaignIDs.insert(campaign.campaignID)
        case UpgradeOfferConfigured.type:
            let campaign = try decode(UpgradeOfferConfigured.self).campaign
            upgrade = campaign
            campaignIDs.insert(campaign.campaignID)
        case CampaignEnded.type:
            // As the catalog projection reads it: the id ends whichever campaign holds it.
            let id = try decode(CampaignEnded.self).campaignID
            if migration?.campaignID == id { migration = nil }
            if upgrade?.campaignID == id { upgrade = nil }
        default:
            break // app.created, StoreKit prices and checkout decide nothing the commands check.
        }
    }

    /// A product in the catalog now, else a refusal naming it.
    public func requireProduct(_ id: String) throws(Refusal) -> CatalogProduct {
        guard let product = products[id] else {
            let was = configured[id] != nil ? " (it was removed)" : ""
            throw Refusal(.notFound, "product \(id) is not in the catalog of app \(appID)\(was)")
        }
        return product
    }

    /// The active campaigns that name a product, as `kind id`.
    public func campaigns(naming product: String) -> [String] {
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
    public func campaigns(selling product: String) -> [String] {
        var out: [String] = []
        if let m = migration, m.productID == product { out.append("migration campaign \(m.campaignID)") }
        if let u = upgrade, u.upgradePaths.contains(where: { $0.toProductID == product }) { out.append("upgrade campaign \(u.campaignID)") }
        return out
    }
}
