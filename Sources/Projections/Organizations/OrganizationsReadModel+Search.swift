import Postgres

/// The organizations projection's part of the console's search and lists: organizations
/// by id and name, App Store subscriptions by original transaction id prefix.
extension OrganizationsReadModel {
    /// An App Store subscription whose original transaction id starts with what was searched.
    public struct SubscriptionMatch: Sendable, Equatable {
        public var originalTransactionID: String
        public var orgID: String
        public var position: Int64
    }

    /// The organizations (`org_id`, `name`), for searches and pages by name.
    public var orgDirectory: DirectoryTable {
        DirectoryTable(connections: connections, table: "proj_organizations.orgs", id: "org_id", name: "name")
    }

    /// Subscriptions whose original transaction id starts with one of `prefixes`, by id,
    /// at most `limit`: each prefix walks the primary key from itself on, `window` rows at
    /// most, so the work is bounded however many subscriptions there are.
    public func subscriptions(prefixes: [String], limit: Int, window: Int = 500) throws -> [SubscriptionMatch] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_organizations.appstore_subscriptions') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try conn.query("""
                SELECT DISTINCT s.original_transaction_id, s.org_id, s.position FROM unnest($1::text[]) v(p)
                CROSS JOIN LATERAL (
                    SELECT original_transaction_id, org_id, position FROM proj_organizations.appstore_subscriptions
                    WHERE original_transaction_id >= v.p ORDER BY original_transaction_id LIMIT $3) s
                WHERE starts_with(s.original_transaction_id, v.p) ORDER BY s.original_transaction_id LIMIT $2
                """, [PostgresTextArray(prefixes), Int64(limit), Int64(window)]).rows.map { r in
                SubscriptionMatch(originalTransactionID: try r.requireString(0), orgID: try r.requireString(1), position: try r.requireInt64(2))
            }
        }
    }
}
