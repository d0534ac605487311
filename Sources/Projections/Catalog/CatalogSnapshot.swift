import LedgerDomain
import LedgerJSON
import Postgres

/// Every app's catalog and publishable keys at one position of `proj_iap`: what the
/// catalog endpoint serves from memory. The IAP projection's reads are all here.
public struct CatalogSnapshot: Sendable {
    public struct Key: Sendable {
        public var keyID: String
        public var appID: String
        public var mode: KeyMode
        public var revoked: Bool
    }

    public var position: Int64
    public var apps: [String: AppCatalog]
    /// By the lowercase hex SHA-256 of the key's text.
    public var keys: [String: Key]

    public static let empty = CatalogSnapshot(position: -1, apps: [:], keys: [:])

    /// Reads the projection in one consistent snapshot; empty until the projector has
    /// created it.
    public static func load(connections: PostgresPool) throws -> CatalogSnapshot {
        do {
            return try read(connections: connections)
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.undefinedTable {
            return .empty
        }
    }

    private static func read(connections: PostgresPool) throws -> CatalogSnapshot {
        try connections.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                let position = try tx.query("SELECT position FROM proj_iap._checkpoint")[0].requireInt64(0)
                var apps: [String: AppCatalog] = [:]
                for row in try tx.query("SELECT app_id, bundle_id, enabled FROM proj_iap.apps").rows {
                    let id = try row.requireString(0)
                    apps[id] = AppCatalog(appID: id, bundleID: try row.requireString(1), enabled: row.bool(2) ?? false)
                }
                let decoder = JSONValueDecoder()
                func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
                    try decoder.decode(type, from: try JSONValue.parse(text))
                }
                for row in try tx.query("""
                    SELECT app_id, config, storekit_price FROM proj_iap.products WHERE NOT removed ORDER BY app_id, first_position
                    """).rows {
                    let app = try row.requireString(0)
                    let product = try decode(CatalogProduct.self, try row.requireString(1))
                    apps[app]?.products.append(product)
                    if let price = row.string(2) { apps[app]?.storeKitPrices[product.id] = try decode(Price.self, price) }
                }
                for row in try tx.query("SELECT app_id, config FROM proj_iap.checkout").rows {
                    apps[try row.requireString(0)]?.checkout = try decode(CheckoutConfig.self, try row.requireString(1))
                }
                for row in try tx.query("SELECT app_id, kind, config FROM proj_iap.campaigns").rows {
                    let app = try row.requireString(0)
                    if try row.requireString(1) == "migration" {
                        apps[app]?.migration = try decode(MigrationCampaignConfig.self, try row.requireString(2))
                    } else {
                        apps[app]?.upgrade = try decode(UpgradeOfferConfig.self, try row.requireString(2))
                    }
                }
                var keys: [String: Key] = [:]
                for row in try tx.query("SELECT sha256, key_id, app_id, mode, revoked FROM proj_iap.app_keys").rows {
                    keys[try row.requireString(0)] = Key(keyID: try row.requireString(1), appID: try row.requireString(2),
                                                         mode: KeyMode(rawValue: try row.requireString(3)) ?? .live,
                                                         revoked: row.bool(4) ?? true)
                }
                return CatalogSnapshot(position: position, apps: apps, keys: keys)
            }
        }
    }

    /// One user's purchases with an app (a database round trip: asked only with `user_id`).
    public static func purchases(app: String, user: String, connections: PostgresPool) throws -> [UserPurchase] {
        try connections.read { conn in
            try conn.query("""
                SELECT source, original_id, product_id, purchased_us, expires_us, revoked_us, trial
                FROM proj_iap.purchases WHERE app_id = $1 AND user_id = $2
                """, [app, user]).rows.map { row in
                UserPurchase(source: PurchaseSource(rawValue: try row.requireString(0)) ?? .web,
                             originalID: try row.requireString(1), productID: try row.requireString(2),
                             purchasedAt: Timestamp(microseconds: try row.requireInt64(3)) ?? .minimum,
                             expiresAt: row.int64(4).flatMap { Timestamp(microseconds: $0) },
                             revokedAt: row.int64(5).flatMap { Timestamp(microseconds: $0) }, trial: row.bool(6) ?? false)
            }
        }
    }

    /// An app's offer impressions by campaign and variant; nil before the projector
    /// created the projection.
    public static func impressions(app: String, connections: PostgresPool) throws -> [(campaignID: String, variantID: Int64?, count: Int64)]? {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_iap.impressions') IS NOT NULL")[0].bool(0) == true else { return nil }
            return try conn.query("""
                SELECT campaign_id, variant_id, count FROM proj_iap.impressions WHERE app_id = $1
                ORDER BY campaign_id, variant_id NULLS FIRST
                """, [app]).rows.map { (campaignID: try $0.requireString(0), variantID: $0.int64(1), count: try $0.requireInt64(2)) }
        }
    }
}
