import Postgres

/// The directory's reads of one projection table of users' facts (`app_id`, `user_id`,
/// `position`, with an index on `(app_id, user_id)`): users by id prefix, pages by id or by
/// latest position, and the latest position of given users. The owning projection's read
/// model makes it with its own table's name.
public struct DirectoryUserTable: Sendable {
    public let connections: PostgresPool
    let table: String
    /// What the index's rows satisfy beyond `app_id` (a partial index's predicate), so
    /// that every statement can walk it.
    let indexed: String

    init(connections: PostgresPool, table: String, indexed: String = "true") {
        self.connections = connections
        self.table = table
        self.indexed = indexed
    }

    /// Users of `apps` whose id starts with one of `prefixes`, by app then user, at most
    /// `limit`. Each (app, prefix) walks the index from the prefix on, `window` rows at
    /// most: bounded work, however many users an app has.
    public func users(apps: [String], prefixes: [String], limit: Int, window: Int = 500) throws -> [DirectoryUser] {
        guard !apps.isEmpty, !prefixes.isEmpty else { return [] }
        return try read { conn in
            try conn.query("""
                SELECT w.app_id, w.user_id, max(w.position) FROM unnest($1::text[]) a(app_id) CROSS JOIN unnest($2::text[]) v(p)
                CROSS JOIN LATERAL (
                    SELECT app_id, user_id, position FROM \(table)
                    WHERE app_id = a.app_id AND \(indexed) AND user_id >= v.p ORDER BY user_id LIMIT $4) w
                WHERE starts_with(w.user_id, v.p) GROUP BY w.app_id, w.user_id ORDER BY 1, 2 LIMIT $3
                """, [PostgresTextArray(apps), PostgresTextArray(prefixes), Int64(limit), Int64(window)])
        }
    }

    /// At most `limit` users by (app, user id), ascending or descending, after `after`.
    public func page(descending: Bool, after: (appID: String, userID: String)?, limit: Int) throws -> [DirectoryUser] {
        let (comparison, order) = descending ? ("<", "DESC") : (">", "ASC")
        // Two statements rather than `$1 IS NULL OR …`, so that the planner walks the
        // index from the key and stops after `limit` users.
        let keyset = after == nil ? "" : "AND (app_id, user_id) \(comparison) ($2, $3)"
        return try read { conn in
            try conn.query("""
                SELECT app_id, user_id, max(position) FROM \(table) WHERE \(indexed) \(keyset)
                GROUP BY app_id, user_id ORDER BY app_id \(order), user_id \(order) LIMIT $1
                """, [Int64(limit)] + (after.map { [$0.appID, $0.userID] } ?? []))
        }
    }

    /// At most `limit` users by their latest position, after the user whose latest is
    /// `after`. A position is one event, which is one user's purchase or fact, so it keys a
    /// user alone. No index orders users by position: every page aggregates the table.
    public func pageByActivity(descending: Bool, after: Int64?, limit: Int) throws -> [DirectoryUser] {
        let (comparison, order) = descending ? ("<", "DESC") : (">", "ASC")
        let keyset = after == nil ? "" : "WHERE last \(comparison) $2"
        return try read { conn in
            try conn.query("""
                SELECT app_id, user_id, last FROM (
                    SELECT app_id, user_id, max(position) AS last FROM \(table) WHERE \(indexed) GROUP BY app_id, user_id) g
                \(keyset) ORDER BY last \(order), app_id \(order), user_id \(order) LIMIT $1
                """, [Int64(limit)] + (after.map { [$0] } ?? []))
        }
    }

    /// The latest position of each of these users that has rows here.
    public func latest(_ users: [(appID: String, userID: String)]) throws -> [DirectoryUser] {
        guard !users.isEmpty else { return [] }
        return try read { conn in
            try conn.query("""
                SELECT t.app_id, t.user_id, max(t.position) FROM unnest($1::text[], $2::text[]) k(app_id, user_id)
                JOIN \(table) t ON t.app_id = k.app_id AND t.user_id = k.user_id GROUP BY t.app_id, t.user_id
                """, [PostgresTextArray(users.map(\.appID)), PostgresTextArray(users.map(\.userID))])
        }
    }

    private func read(_ statement: (PostgresConnection) throws -> PostgresResult) throws -> [DirectoryUser] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass($1) IS NOT NULL", [table])[0].bool(0) == true else { return [] }
            return try statement(conn).rows.map { r in
                DirectoryUser(appID: try r.requireString(0), userID: try r.requireString(1), lastPosition: try r.requireInt64(2))
            }
        }
    }
}
