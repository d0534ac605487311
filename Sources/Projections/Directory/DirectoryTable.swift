import Postgres

/// The directory's reads of one projection table of named records (`id`, `name`): a
/// search by `TextMatch`, a page by name after a key, and the names of given ids. The
/// owning projection's read model makes it with its own table's name; the statements
/// are the same for every such table.
public struct DirectoryTable: Sendable {
    public let connections: PostgresPool
    /// The qualified table (`proj_billing.payers`) and its columns.
    let table: String
    let id: String
    let name: String

    init(connections: PostgresPool, table: String, id: String, name: String) {
        self.connections = connections
        self.table = table
        self.id = id
        self.name = name
    }

    /// The best `limit` rows matching `match`, by rank then id, and how many match in all.
    public func matching(_ match: TextMatch, limit: Int) throws -> (rows: [DirectoryRow], total: Int) {
        try connections.read { conn in
            guard try exists(conn) else { return ([], 0) }
            let result = try conn.query("""
                SELECT id, name, lower(name), rank, count(*) OVER () FROM (
                    SELECT \(id) AS id, \(name) AS name, \(TextMatch.rank(id: id, name: name, from: 1)) AS rank
                    FROM \(table) WHERE \(TextMatch.condition(id: id, name: name, at: 3))) m
                ORDER BY rank, id LIMIT $5
                """, match.parameters + [Int64(limit)])
            let total = try result.rows.first.map { Int(try $0.requireInt64(4)) } ?? 0
            return (try result.rows.map { r in
                DirectoryRow(id: try r.requireString(0), name: try r.requireString(1), nameKey: try r.requireString(2),
                             rank: MatchRank(rawValue: Int(try r.requireInt64(3))))
            }, total)
        }
    }

    /// At most `limit` rows by `lower(name)` then id, ascending or descending, after the
    /// row keyed `after` (its `nameKey` and id), of those matching `filter` when given.
    public func page(descending: Bool, after: (nameKey: String, id: String)?, filter: TextMatch?, limit: Int) throws -> [DirectoryRow] {
        try connections.read { conn in
            guard try exists(conn) else { return [] }
            let (comparison, order) = descending ? ("<", "DESC") : (">", "ASC")
            let filtered = filter == nil ? "" : "AND " + TextMatch.condition(id: id, name: name, at: 4)
            let parameters: [any PostgresBindable] = [after?.nameKey, after?.id, Int64(limit)]
                + (filter.map { [$0.containsPattern] } ?? [])
            return try conn.query("""
                SELECT \(id), \(name), lower(\(name)) FROM \(table)
                WHERE ($1::text IS NULL OR (lower(\(name)), \(id)) \(comparison) ($1, $2)) \(filtered)
                ORDER BY lower(\(name)) \(order), \(id) \(order) LIMIT $3
                """, parameters).rows.map { r in
                DirectoryRow(id: try r.requireString(0), name: try r.requireString(1), nameKey: try r.requireString(2))
            }
        }
    }

    /// The rows of these ids that exist, by id.
    public func rows(ids: [String]) throws -> [String: DirectoryRow] {
        guard !ids.isEmpty else { return [:] }
        return try connections.read { conn in
            guard try exists(conn) else { return [:] }
            var found: [String: DirectoryRow] = [:]
            for r in try conn.query("SELECT \(id), \(name), lower(\(name)) FROM \(table) WHERE \(id) = ANY($1::text[])",
                                    [PostgresTextArray(ids)]).rows {
                let row = DirectoryRow(id: try r.requireString(0), name: try r.requireString(1), nameKey: try r.requireString(2))
                found[row.id] = row
            }
            return found
        }
    }

    private func exists(_ conn: PostgresConnection) throws -> Bool {
        try conn.query("SELECT to_regclass($1) IS NOT NULL", [table])[0].bool(0) == true
    }
}
