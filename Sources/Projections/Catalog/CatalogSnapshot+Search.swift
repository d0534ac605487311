import Postgres

/// The catalog projection's part of the console's search and lists: apps by id and name,
/// the users with purchases, and StoreKit purchases by transaction id prefix.
extension CatalogSnapshot {
    /// A StoreKit purchase whose transaction id starts with what was searched.
    public struct TransactionMatch: Sendable, Equatable {
        public var appID: String
        public var userID: String
        public var transactionID: String
        public var originalTransactionID: String
        public var position: Int64
    }

    /// The apps (`app_id`, `name`), for searches and pages by name.
    public static func appDirectory(connections: PostgresPool) -> DirectoryTable {
        DirectoryTable(connections: connections, table: "proj_iap.apps", id: "app_id", name: "name")
    }

    /// The users with purchases (`purchases_user_idx`).
    public static func purchaseUsers(connections: PostgresPool) -> DirectoryUserTable {
        DirectoryUserTable(connections: connections, table: "proj_iap.purchases")
    }

    /// Every app's id, in order.
    public static func appIDs(connections: PostgresPool) throws -> [String] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_iap.apps') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try conn.query("SELECT app_id FROM proj_iap.apps ORDER BY app_id").rows.map { try $0.requireString(0) }
        }
    }

    /// StoreKit purchases of `apps` whose transaction id starts with one of `prefixes`, at
    /// most `limit`: each (app, prefix) walks the primary key `(app_id, source,
    /// purchase_id)` from the prefix on, `window` rows at most.
    public static func storeKitPurchases(apps: [String], prefixes: [String], limit: Int, window: Int = 500,
                                         connections: PostgresPool) throws -> [TransactionMatch] {
        guard !apps.isEmpty, !prefixes.isEmpty else { return [] }
        return try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_iap.purchases') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try conn.query("""
                SELECT DISTINCT w.app_id, w.user_id, w.purchase_id, w.original_id, w.position
                FROM unnest($1::text[]) a(app_id) CROSS JOIN unnest($2::text[]) v(p)
                CROSS JOIN LATERAL (
                    SELECT app_id, user_id, purchase_id, original_id, position FROM proj_iap.purchases
                    WHERE app_id = a.app_id AND source = 'storekit' AND purchase_id >= v.p ORDER BY purchase_id LIMIT $4) w
                WHERE starts_with(w.purchase_id, v.p) ORDER BY w.purchase_id, w.app_id LIMIT $3
                """, [PostgresTextArray(apps), PostgresTextArray(prefixes), Int64(limit), Int64(window)]).rows.map { r in
                TransactionMatch(appID: try r.requireString(0), userID: try r.requireString(1), transactionID: try r.requireString(2),
                                 originalTransactionID: try r.requireString(3), position: try r.requireInt64(4))
            }
        }
    }
}
