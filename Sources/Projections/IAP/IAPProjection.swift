import EventStore
import LedgerDomain
import LedgerJSON

/// The IAP catalog: apps and their publishable keys, products and StoreKit prices,
/// checkout, the active campaigns, users' purchase histories and offer impressions.
///
/// Configuration is kept as the event's own JSON text (the catalog's readers decode it
/// with the domain types), so a new optional field needs no new column.
public struct IAPProjection: Projection {
    public let name = "iap"
    public let version = 1
    public let tables = ["apps", "app_keys", "products", "checkout", "campaigns", "purchases", "impressions"]

    public init() {}

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE apps (app_id text PRIMARY KEY, name text NOT NULL, bundle_id text NOT NULL,
                enabled boolean NOT NULL, position bigint NOT NULL)
            """,
            """
            CREATE TABLE app_keys (key_id text PRIMARY KEY, app_id text NOT NULL, mode text NOT NULL,
                sha256 text NOT NULL UNIQUE, prefix text NOT NULL, revoked boolean NOT NULL)
            """,
            """
            CREATE TABLE products (app_id text NOT NULL, product_id text NOT NULL, config text NOT NULL,
                storekit_price text, first_position bigint NOT NULL, removed boolean NOT NULL,
                PRIMARY KEY (app_id, product_id))
            """,
            "CREATE TABLE checkout (app_id text PRIMARY KEY, config text NOT NULL)",
            """
            CREATE TABLE campaigns (app_id text NOT NULL, kind text NOT NULL, campaign_id text NOT NULL,
                config text NOT NULL, position bigint NOT NULL, PRIMARY KEY (app_id, kind))
            """,
            """
            CREATE TABLE purchases (app_id text NOT NULL, user_id text NOT NULL, source text NOT NULL,
                purchase_id text NOT NULL, original_id text NOT NULL, product_id text NOT NULL,
                purchased_us bigint NOT NULL, expires_us bigint, revoked_us bigint, trial boolean NOT NULL,
                position bigint NOT NULL, PRIMARY KEY (app_id, source, purchase_id))
            """,
            "CREATE INDEX purchases_user_idx ON purchases (app_id, user_id)",
            """
            CREATE TABLE impressions (app_id text NOT NULL, campaign_id text NOT NULL, variant_id bigint,
                count bigint NOT NULL)
            """,
            "CREATE UNIQUE INDEX impressions_key ON impressions (app_id, campaign_id, (coalesce(variant_id, -1)))",
        ]
    }

    public func apply(_ event: RecordedEvent, in db: ProjectionContext) throws {
        let p = event.position
        switch event.type {
        case AppCreated.type:
            let e = try event.decode(AppCreated.self)
            db.enqueue("INSERT INTO apps (app_id, name, bundle_id, enabled, position) VALUES ($1, $2, $3, true, $4)",
                       [e.appID, e.name, e.bundleID, p])
        case AppKeyIssued.type:
            let e = try event.decode(AppKeyIssued.self)
            db.enqueue("""
                INSERT INTO app_keys (key_id, app_id, mode, sha256, prefix, revoked) VALUES ($1, $2, $3, $4, $5, false)
                """, [e.keyID, e.appID, e.mode.rawValue, e.sha256, e.prefix])
        case AppKeyRevoked.type:
            let e = try event.decode(AppKeyRevoked.self)
            db.enqueue("UPDATE app_keys SET revoked = true WHERE key_id = $1 AND app_id = $2", [e.keyID, e.appID])
        case AppStatusChanged.type:
            let e = try event.decode(AppStatusChanged.self)
            db.enqueue("UPDATE apps SET enabled = $2 WHERE app_id = $1", [e.appID, e.enabled])
        case ProductConfigured.type:
            let e = try event.decode(ProductConfigured.self)
            // A product configured again keeps its place in the catalog and its StoreKit price.
            db.enqueue("""
                INSERT INTO products (app_id, product_id, config, first_position, removed) VALUES ($1, $2, $3, $4, false)
                ON CONFLICT (app_id, product_id) DO UPDATE SET config = excluded.config, removed = false
                """, [e.appID, e.product.id, try member(event, "product"), p])
        case ProductRemoved.type:
            let e = try event.decode(ProductRemoved.self)
            db.enqueue("UPDATE products SET removed = true WHERE app_id = $1 AND product_id = $2", [e.appID, e.productID])
        case StoreKitPriceSynced.type:
            let e = try event.decode(StoreKitPriceSynced.self)
            db.enqueue("UPDATE products SET storekit_price = $3 WHERE app_id = $1 AND product_id = $2",
                       [e.appID, e.productID, try member(event, "price")])
        case CheckoutConfigured.type:
            let e = try event.decode(CheckoutConfigured.self)
            db.enqueue("""
                INSERT INTO checkout (app_id, config) VALUES ($1, $2)
                ON CONFLICT (app_id) DO UPDATE SET config = excluded.config
                """, [e.appID, try member(event, "checkout")])
        case MigrationCampaignConfigured.type:
            let e = try event.decode(MigrationCampaignConfigured.self)
            try campaign(e.appID, "migration", e.campaign.campaignID, event, db)
        case UpgradeOfferConfigured.type:
            let e = try event.decode(UpgradeOfferConfigured.self)
            try campaign(e.appID, "upgrade", e.campaign.campaignID, event, db)
        case CampaignEnded.type:
            let e = try event.decode(CampaignEnded.self)
            db.enqueue("DELETE FROM campaigns WHERE app_id = $1 AND campaign_id = $2", [e.appID, e.campaignID])
        case PurchaseRecorded.type:
            let e = try event.decode(PurchaseRecorded.self)
            // The same purchase again (a refund synced later) can only add its revocation.
            db.enqueue("""
                INSERT INTO purchases (app_id, user_id, source, purchase_id, original_id, product_id, purchased_us,
                    expires_us, revoked_us, trial, position)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                ON CONFLICT (app_id, source, purchase_id) DO UPDATE
                SET revoked_us = coalesce(purchases.revoked_us, excluded.revoked_us)
                """, [e.appID, e.userID, e.source.rawValue, e.purchaseID, e.originalID, e.productID,
                      e.purchasedAt.microseconds, e.expiresAt?.microseconds, e.revokedAt?.microseconds, e.trial, p])
        case OfferImpressionsCounted.type:
            let e = try event.decode(OfferImpressionsCounted.self)
            for count in e.counts {
                db.enqueue("""
                    INSERT INTO impressions (app_id, campaign_id, variant_id, count) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (app_id, campaign_id, (coalesce(variant_id, -1))) DO UPDATE
                    SET count = impressions.count + excluded.count
                    """, [e.appID, count.campaignID, count.variantID, count.count])
            }
        default:
            break
        }
    }

    private func campaign(_ app: String, _ kind: String, _ id: String, _ event: RecordedEvent, _ db: ProjectionContext) throws {
        db.enqueue("""
            INSERT INTO campaigns (app_id, kind, campaign_id, config, position) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (app_id, kind) DO UPDATE SET campaign_id = excluded.campaign_id, config = excluded.config,
                position = excluded.position
            """, [app, kind, id, try member(event, "campaign"), event.position])
    }

    /// One member of the event's data, as compact JSON text.
    private func member(_ event: RecordedEvent, _ name: String) throws -> String {
        guard let value = try event.data()[name] else { throw ProjectionError("the event has no \(name)") }
        return value.compactText()
    }
}
