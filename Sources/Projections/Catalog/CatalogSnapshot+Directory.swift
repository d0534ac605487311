import Postgres

/// What the catalog snapshot leaves out because the SDKs never see it (an app's name,
/// when it was created, its keys' printable prefixes), for `ledger admin app list|show`.
extension CatalogSnapshot {
    /// An app as the operator sees it.
    public struct AppRecord: Sendable, Encodable, Equatable {
        public struct Key: Sendable, Encodable, Equatable {
            public var keyID: String
            public var mode: String
            public var prefix: String
            public var revoked: Bool
            enum CodingKeys: String, CodingKey { case mode, prefix, revoked, keyID = "key_id" }
        }

        public var id: String
        public var name: String
        public var bundleID: String
        public var enabled: Bool
        public var position: Int64
        public var keys: [Key]

        enum CodingKeys: String, CodingKey { case id, name, enabled, position, keys, bundleID = "bundle_id" }
    }

    /// Every app by id, or only `id`; nil before the projector created the projection.
    public static func apps(id: String? = nil, connections: PostgresPool) throws -> [AppRecord]? {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_iap.apps') IS NOT NULL")[0].bool(0) == true else { return nil }
            return try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                var keys: [String: [AppRecord.Key]] = [:]
                for r in try tx.query("""
                    SELECT app_id, key_id, mode, prefix, revoked FROM proj_iap.app_keys
                    WHERE $1::text IS NULL OR app_id = $1 ORDER BY app_id, key_id
                    """, [id]).rows {
                    keys[try r.requireString(0), default: []].append(AppRecord.Key(
                        keyID: try r.requireString(1), mode: try r.requireString(2), prefix: try r.requireString(3),
                        revoked: r.bool(4) ?? false))
                }
                return try tx.query("""
                    SELECT app_id, name, bundle_id, enabled, position FROM proj_iap.apps
                    WHERE $1::text IS NULL OR app_id = $1 ORDER BY app_id
                    """, [id]).rows.map { r in
                    let app = try r.requireString(0)
                    return AppRecord(id: app, name: try r.requireString(1), bundleID: try r.requireString(2),
                                     enabled: r.bool(3) ?? false, position: try r.requireInt64(4), keys: keys[app] ?? [])
                }
            }
        }
    }
}
