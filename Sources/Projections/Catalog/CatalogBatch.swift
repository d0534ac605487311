import EventStore
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine

/// One batch of the IAP fold. The catalog's configuration (products, campaigns) is read
/// for the apps the batch touches, changed in memory in log order and written back whole;
/// purchases and impressions merge with the rows already there in SQL; the rest are new
/// rows or changes that the last event decides.
final class CatalogBatch {
    static let types: Set<String> = [AppCreated.type, AppKeyIssued.type, AppKeyRevoked.type, AppStatusChanged.type,
                                     ProductConfigured.type, ProductRemoved.type, StoreKitPriceSynced.type,
                                     CheckoutConfigured.type, MigrationCampaignConfigured.type, UpgradeOfferConfigured.type,
                                     CampaignEnded.type, PurchaseRecorded.type, OfferImpressionsCounted.type]
    static func folds(_ type: String) -> Bool { types.contains(type) }

    /// Configuration events are decoded first, so that the rows they touch are read in one go.
    private var pending: [(RecordedEvent, Change)] = []
    var isEmpty: Bool { pending.isEmpty }

    private enum Change {
        case appCreated(AppCreated), keyIssued(AppKeyIssued), keyRevoked(AppKeyRevoked), status(AppStatusChanged)
        case product(app: String, id: String, config: String), productRemoved(ProductRemoved)
        case price(app: String, product: String, price: String), checkout(app: String, config: String)
        case campaign(app: String, kind: String, id: String, config: String), campaignEnded(CampaignEnded)
        case purchase(PurchaseRecorded), impressions(OfferImpressionsCounted)
    }

    func decode(_ event: RecordedEvent) throws {
        let change: Change
        switch event.type {
        case AppCreated.type: change = .appCreated(try event.decode(AppCreated.self))
        case AppKeyIssued.type: change = .keyIssued(try event.decode(AppKeyIssued.self))
        case AppKeyRevoked.type: change = .keyRevoked(try event.decode(AppKeyRevoked.self))
        case AppStatusChanged.type: change = .status(try event.decode(AppStatusChanged.self))
        case ProductConfigured.type:
            let e = try event.decode(ProductConfigured.self)
            change = .product(app: e.appID, id: e.product.id, config: try Self.member(event, "product"))
        case ProductRemoved.type: change = .productRemoved(try event.decode(ProductRemoved.self))
        case StoreKitPriceSynced.type:
            let e = try event.decode(StoreKitPriceSynced.self)
            change = .price(app: e.appID, product: e.productID, price: try Self.member(event, "price"))
        case CheckoutConfigured.type:
            let e = try event.decode(CheckoutConfigured.self)
            change = .checkout(app: e.appID, config: try Self.member(event, "checkout"))
        case MigrationCampaignConfigured.type:
            let e = try event.decode(MigrationCampaignConfigured.self)
            change = .campaign(app: e.appID, kind: "migration", id: e.campaign.campaignID, config: try Self.member(event, "campaign"))
        case UpgradeOfferConfigured.type:
            let e = try event.decode(UpgradeOfferConfigured.self)
            change = .campaign(app: e.appID, kind: "upgrade", id: e.campaign.campaignID, config: try Self.member(event, "campaign"))
        case CampaignEnded.type: change = .campaignEnded(try event.decode(CampaignEnded.self))
        case PurchaseRecorded.type: change = .purchase(try event.decode(PurchaseRecorded.self))
        case OfferImpressionsCounted.type: change = .impressions(try event.decode(OfferImpressionsCounted.self))
        default: return
        }
        pending.append((event, change))
    }

    /// One member of the event's data, as compact JSON text.
    private static func member(_ event: RecordedEvent, _ name: String) throws -> String {
        guard let value = try event.data()[name] else { throw ProjectionError("the event has no \(name)") }
        return value.compactText()
    }

    // MARK: State

    private struct ProductKey: Hashable { var app: String; var product: String }
    private struct Product { var config: String; var storekitPrice: String?; var firstPosition: Int64; var removed: Bool }
    private var products: [ProductKey: Product?] = [:]
    private var touchedProducts = OrderedKeys<ProductKey>()
    private struct CampaignKey: Hashable { var app: String; var kind: String }
    private struct Campaign { var id: String; var config: String; var position: Int64 }
    /// Every campaign row of the apps the batch touches (nil: none of that kind).
    private var campaigns: [CampaignKey: Campaign?] = [:]
    private var touchedCampaigns = OrderedKeys<CampaignKey>()
    private var campaignApps = OrderedKeys<String>()

    private var apps = RowBuffer(columns: 5)
    private var appStatus: [String: Bool] = [:]
    private var appStatusOrder = OrderedKeys<String>()
    private var appKeys = RowBuffer(columns: 6)
    private var revokedKeys: [String: String] = [:]
    private var revokedOrder = OrderedKeys<String>()
    private var checkout: [String: String] = [:]
    private var checkoutOrder = OrderedKeys<String>()
    private struct PurchaseKey: Hashable { var app: String; var source: String; var id: String }
    private var purchases: [PurchaseKey: [any PostgresBindable]] = [:]
    private var purchaseOrder = OrderedKeys<PurchaseKey>()
    private struct ImpressionKey: Hashable { var app: String; var campaign: String; var variant: Int64? }
    private var impressions: [ImpressionKey: Int64] = [:]
    private var impressionOrder = OrderedKeys<ImpressionKey>()

    /// Reads the products and campaigns the batch's configuration events touch.
    func load(from db: ProjectionContext) throws {
        var productKeys = OrderedKeys<ProductKey>()
        for (_, change) in pending {
            switch change {
            case .product(let app, let id, _): productKeys.insert(ProductKey(app: app, product: id))
            case .productRemoved(let e): productKeys.insert(ProductKey(app: e.appID, product: e.productID))
            case .price(let app, let product, _): productKeys.insert(ProductKey(app: app, product: product))
            case .campaign(let app, _, _, _): campaignApps.insert(app)
            case .campaignEnded(let e): campaignApps.insert(e.appID)
            default: break
            }
        }
        if !productKeys.isEmpty {
            for key in productKeys.keys { products[key] = .some(nil) }
            for row in try db.execute("""
                SELECT p.app_id, p.product_id, config, storekit_price, first_position, removed
                FROM products p JOIN unnest($1::text[], $2::text[]) AS k (app_id, product_id)
                    ON p.app_id = k.app_id AND p.product_id = k.product_id
                """, [PostgresTextArray(productKeys.keys.map(\.app)), PostgresTextArray(productKeys.keys.map(\.product))]).rows {
                products[ProductKey(app: try row.requireString(0), product: try row.requireString(1))] = Product(
                    config: try row.requireString(2), storekitPrice: row.string(3), firstPosition: try row.requireInt64(4),
                    removed: row.bool(5) ?? false)
            }
        }
        if !campaignApps.isEmpty {
            for row in try db.execute("SELECT app_id, kind, campaign_id, config, position FROM campaigns WHERE app_id = ANY($1::text[])",
                                      [PostgresTextArray(campaignApps.keys)]).rows {
                campaigns[CampaignKey(app: try row.requireString(0), kind: try row.requireString(1))] = Campaign(
                    id: try row.requireString(2), config: try row.requireString(3), position: try row.requireInt64(4))
            }
        }
    }

    /// Folds the decoded events in log order.
    func apply() throws {
        for (event, change) in pending {
            let p = event.position
            switch change {
            case .appCreated(let e):
                apps.append([e.appID, e.name, e.bundleID, true, p])
                appStatus[e.appID] = nil
            case .keyIssued(let e):
                appKeys.append([e.keyID, e.appID, e.mode.rawValue, e.sha256, e.prefix, false])
                revokedKeys[e.keyID] = nil
            case .keyRevoked(let e):
                revokedOrder.insert(e.keyID)
                revokedKeys[e.keyID] = e.appID
            case .status(let e):
                appStatusOrder.insert(e.appID)
                appStatus[e.appID] = e.enabled
            case .product(let app, let id, let config):
                // A product configured again keeps its place in the catalog and its StoreKit price.
                let key = ProductKey(app: app, product: id)
                touchedProducts.insert(key)
                if var product = products[key] ?? nil {
                    product.config = config
                    product.removed = false
                    products[key] = product
                } else {
                    products[key] = Product(config: config, storekitPrice: nil, firstPosition: p, removed: false)
                }
            case .productRemoved(let e):
                update(ProductKey(app: e.appID, product: e.productID)) { $0.removed = true }
            case .price(let app, let product, let price):
                update(ProductKey(app: app, product: product)) { $0.storekitPrice = price }
            case .checkout(let app, let config):
                checkoutOrder.insert(app)
                checkout[app] = config
            case .campaign(let app, let kind, let id, let config):
                let key = CampaignKey(app: app, kind: kind)
                touchedCampaigns.insert(key)
                campaigns[key] = Campaign(id: id, config: config, position: p)
            case .campaignEnded(let e):
                for (key, campaign) in campaigns where key.app == e.appID && campaign?.id == e.campaignID {
                    touchedCampaigns.insert(key)
                    campaigns[key] = .some(nil)
                }
            case .purchase(let e):
                // The same purchase again (a refund synced later) can only add its revocation.
                let key = PurchaseKey(app: e.appID, source: e.source.rawValue, id: e.purchaseID)
                purchaseOrder.insert(key)
                if var row = purchases[key] {
                    if row[8].postgresText == nil { row[8] = e.revokedAt?.microseconds }
                    purchases[key] = row
                } else {
                    purchases[key] = [e.appID, e.userID, e.source.rawValue, e.purchaseID, e.originalID, e.productID,
                                      e.purchasedAt.microseconds, e.expiresAt?.microseconds, e.revokedAt?.microseconds, e.trial, p]
                }
            case .impressions(let e):
                for count in e.counts {
                    let key = ImpressionKey(app: e.appID, campaign: count.campaignID, variant: count.variantID)
                    impressionOrder.insert(key)
                    impressions[key, default: 0] += count.count
                }
            }
        }
    }

    /// Changes a product that exists (as the table's `UPDATE … WHERE` would); none otherwise.
    private func update(_ key: ProductKey, _ change: (inout Product) -> Void) {
        guard var product = products[key] ?? nil else { return }
        change(&product)
        touchedProducts.insert(key)
        products[key] = product
    }

    func write(to db: ProjectionContext) throws {
        try db.copy(into: "apps", columns: ["app_id", "name", "bundle_id", "enabled", "position"], rows: apps)
        var status = RowBuffer(columns: 2)
        for app in appStatusOrder.keys { if let enabled = appStatus[app] { status.append([app, enabled]) } }
        db.enqueue("""
            UPDATE apps a SET enabled = u.enabled FROM unnest($1::text[], $2::boolean[]) AS u (app_id, enabled)
            WHERE a.app_id = u.app_id
            """, rows: status)
        try db.copy(into: "app_keys", columns: ["key_id", "app_id", "mode", "sha256", "prefix", "revoked"], rows: appKeys)
        var revoked = RowBuffer(columns: 2)
        for key in revokedOrder.keys { if let app = revokedKeys[key] { revoked.append([key, app]) } }
        db.enqueue("""
            UPDATE app_keys k SET revoked = true FROM unnest($1::text[], $2::text[]) AS u (key_id, app_id)
            WHERE k.key_id = u.key_id AND k.app_id = u.app_id
            """, rows: revoked)
        var productRows = RowBuffer(columns: 6)
        for key in touchedProducts.keys {
            guard let p = products[key] ?? nil else { continue }
            productRows.append([key.app, key.product, p.config, p.storekitPrice, p.firstPosition, p.removed])
        }
        db.enqueue("""
            INSERT INTO products (app_id, product_id, config, storekit_price, first_position, removed)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::boolean[])
            ON CONFLICT (app_id, product_id) DO UPDATE SET config = excluded.config, storekit_price = excluded.storekit_price,
                removed = excluded.removed
            """, rows: productRows)
        var checkoutRows = RowBuffer(columns: 2)
        for app in checkoutOrder.keys { checkoutRows.append([app, checkout[app]!]) }
        db.enqueue("""
            INSERT INTO checkout (app_id, config) SELECT * FROM unnest($1::text[], $2::text[])
            ON CONFLICT (app_id) DO UPDATE SET config = excluded.config
            """, rows: checkoutRows)
        var campaignRows = RowBuffer(columns: 5), endedRows = RowBuffer(columns: 2)
        for key in touchedCampaigns.keys {
            if let c = campaigns[key] ?? nil { campaignRows.append([key.app, key.kind, c.id, c.config, c.position]) }
            else { endedRows.append([key.app, key.kind]) }
        }
        db.enqueue("""
            DELETE FROM campaigns c USING unnest($1::text[], $2::text[]) AS u (app_id, kind)
            WHERE c.app_id = u.app_id AND c.kind = u.kind
            """, rows: endedRows)
        db.enqueue("""
            INSERT INTO campaigns (app_id, kind, campaign_id, config, position)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
            ON CONFLICT (app_id, kind) DO UPDATE SET campaign_id = excluded.campaign_id, config = excluded.config,
                position = excluded.position
            """, rows: campaignRows)
        var purchaseRows = RowBuffer(columns: 11)
        for key in purchaseOrder.keys { purchaseRows.append(purchases[key]!) }
        db.enqueue("""
            INSERT INTO purchases AS p (app_id, user_id, source, purchase_id, original_id, product_id, purchased_us,
                expires_us, revoked_us, trial, position)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[],
                                 $8::bigint[], $9::bigint[], $10::boolean[], $11::bigint[])
            ON CONFLICT (app_id, source, purchase_id) DO UPDATE SET revoked_us = coalesce(p.revoked_us, excluded.revoked_us)
            """, rows: purchaseRows)
        var impressionRows = RowBuffer(columns: 4)
        for key in impressionOrder.keys { impressionRows.append([key.app, key.campaign, key.variant, impressions[key]!]) }
        db.enqueue("""
            INSERT INTO impressions AS i (app_id, campaign_id, variant_id, count)
            SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])
            ON CONFLICT (app_id, campaign_id, (coalesce(variant_id, -1))) DO UPDATE SET count = i.count + excluded.count
            """, rows: impressionRows)
    }
}
