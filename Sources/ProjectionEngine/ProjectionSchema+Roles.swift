import Postgres

extension ProjectionSchema {
    /// The role that owns and alone writes the projections (migration 0011): the
    /// projector's login is a member of it.
    public static let ownerRole = "ledger_projector"
    /// The roles that read the projections, SELECT only: the API's (`ledger_service`),
    /// the console's and the operators' (migrations 0011 and 0013).
    public static let readerRoles = ["ledger_service", "ledger_console", "ledger_operator"]

    /// Gives `schema` and every table in it to `ownerRole`, and each of `readerRoles`
    /// SELECT on them (docs/security.md): done on every schema a projector creates, before
    /// it holds a row, and again on the live ones when a projector starts, so that a schema
    /// made before the roles were separate, or a table added since, is never left writable
    /// by a reader. Idempotent. The connection's role must be a member of `ownerRole`.
    static func handOver(_ schema: String, on connection: PostgresConnection) throws {
        let quoted = connection.quoteIdentifier(schema)
        // A database migrated before a reader role existed has no such role yet.
        let readers = try connection.query("SELECT rolname::text FROM pg_roles WHERE rolname = ANY($1::text[]) ORDER BY rolname",
                                           [PostgresTextArray(readerRoles)]).rows.map { try $0.requireString(0) }
        // At every start of a projector, for every schema: one read in the common case that
        // all is as it should be already.
        guard try connection.query("""
            SELECT (SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = $1) IS DISTINCT FROM $2
                OR EXISTS (SELECT 1 FROM unnest($3::text[]) r WHERE NOT has_schema_privilege(r, $1, 'USAGE'))
                OR EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, unnest($3::text[]) r
                           WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm')
                             AND (pg_get_userbyid(c.relowner) <> $2 OR NOT has_table_privilege(r, c.oid, 'SELECT')
                                  OR has_table_privilege(r, c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')))
            """, [schema, ownerRole, PostgresTextArray(readers)])[0].bool(0) == true else { return }
        do {
            if try connection.query("SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = $1", [schema])
                .rows.first?.string(0) != ownerRole {
                try connection.query("ALTER SCHEMA \(quoted) OWNER TO \(ownerRole)")
            }
            let foreign = try connection.query("""
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND pg_get_userbyid(c.relowner) <> $2
                ORDER BY c.relname
                """, [schema, ownerRole]).rows.map { try $0.requireString(0) }
            for table in foreign {
                try connection.query("ALTER TABLE \(quoted).\(connection.quoteIdentifier(table)) OWNER TO \(ownerRole)")
            }
            for reader in readers.map(connection.quoteIdentifier) {
                try connection.query("REVOKE ALL ON ALL TABLES IN SCHEMA \(quoted) FROM \(reader)")
                try connection.query("GRANT USAGE ON SCHEMA \(quoted) TO \(reader)")
                try connection.query("GRANT SELECT ON ALL TABLES IN SCHEMA \(quoted) TO \(reader)")
            }
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.insufficientPrivilege {
            throw PostgresError(code: error.code, sqlState: error.sqlState,
                                message: "cannot give the projection schema \(schema) to \(ownerRole): \(error.message). The projector's login must be a member of \(ownerRole) (GRANT \(ownerRole) TO <login>; docs/security.md)")
        }
    }
}
