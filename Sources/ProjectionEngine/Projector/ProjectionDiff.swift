import Postgres

/// Row-level comparison of a projection table in two schemas.
enum ProjectionDiff {
    /// Rows added, removed and changed in `build` compared with `live` (nil: every row is new).
    /// Rows are matched on the table's primary key; a table without one is compared whole
    /// rows only (a changed row counts as one removed and one added).
    static func compare(table: String, build: String, live: String?, on connection: PostgresConnection) throws -> ProjectionDifferences.Table {
        let b = connection.quoteIdentifier(build) + "." + connection.quoteIdentifier(table)
        guard let live else {
            let count = try connection.query("SELECT count(*) FROM \(b)")[0].requireInt64(0)
            return .init(table: table, added: Int(count), removed: 0, changed: 0)
        }
        let l = connection.quoteIdentifier(live) + "." + connection.quoteIdentifier(table)
        let key = try connection.query("""
            SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
            WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)
            """, [b]).rows.map { try connection.quoteIdentifier($0.requireString(0)) }
        let row: PostgresRow
        if key.isEmpty {
            row = try connection.query("""
                SELECT (SELECT count(*) FROM (SELECT t::text FROM \(b) t EXCEPT ALL SELECT t::text FROM \(l) t) x),
                       (SELECT count(*) FROM (SELECT t::text FROM \(l) t EXCEPT ALL SELECT t::text FROM \(b) t) x), 0
                """)[0]
        } else {
            let on = key.map { "b.\($0) = l.\($0)" }.joined(separator: " AND ")
            row = try connection.query("""
                SELECT count(*) FILTER (WHERE l.\(key[0]) IS NULL), count(*) FILTER (WHERE b.\(key[0]) IS NULL),
                       count(*) FILTER (WHERE b.\(key[0]) IS NOT NULL AND l.\(key[0]) IS NOT NULL AND b::text <> l::text)
                FROM \(b) b FULL JOIN \(l) l ON \(on)
                """)[0]
        }
        return .init(table: table, added: Int(try row.requireInt64(0)), removed: Int(try row.requireInt64(1)),
                     changed: Int(try row.requireInt64(2)))
    }
}
