import Postgres

/// Orders of the directory that only the database can give: users from two projections'
/// tables merged into one page by (app, user id) must be in the order each table's index
/// walks them, which is the database's collation, not Swift's. Names no table.
public enum DirectoryOrder {
    /// `users` by (app id, user id), in the database's collation.
    public static func byID(_ users: [DirectoryUser], descending: Bool, connections: PostgresPool) throws -> [DirectoryUser] {
        guard users.count > 1 else { return users }
        let order = descending ? "DESC" : "ASC"
        return try connections.read { conn in
            try conn.query("""
                SELECT a, u, p FROM unnest($1::text[], $2::text[], $3::text[]::bigint[]) t(a, u, p) ORDER BY a \(order), u \(order)
                """, [PostgresTextArray(users.map(\.appID)), PostgresTextArray(users.map(\.userID)),
                      PostgresTextArray(users.map { String($0.lastPosition) })]).rows.map { r in
                DirectoryUser(appID: try r.requireString(0), userID: try r.requireString(1), lastPosition: try r.requireInt64(2))
            }
        }
    }
}
