import EventStore
import Postgres

/// Creating, naming and inspecting the schemas projections live in.
///
/// Each schema holds the projection's tables and a one-row `_checkpoint` table: the
/// position applied so far, the code version that built it, and a failure if it
/// stopped. Because the checkpoint lives inside the schema, swapping a rebuilt schema in
/// swaps its checkpoint with it, atomically.
public enum ProjectionSchema {
    public struct Checkpoint: Sendable, Equatable {
        public var position: Int64
        public var version: Int
        /// Set when the projection stopped on a poison event.
        public var failedPosition: Int64?
        public var error: String?
    }

    static func buildSchema(of projection: any Projection) -> String { projection.schema + "__build" }
    static func oldSchema(of projection: any Projection) -> String { projection.schema + "__old" }

    /// Whether a schema exists.
    public static func exists(_ schema: String, on connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]).rowCount == 1
    }

    /// Creates an empty schema for a projection, with its checkpoint at 0.
    static func create(_ schema: String, for projection: any Projection, on connection: PostgresConnection) throws {
        let quoted = connection.quoteIdentifier(schema)
        try connection.query("CREATE SCHEMA \(quoted)")
        try connection.query("SET LOCAL search_path TO \(quoted), public")
        for statement in projection.tablesSQL { try connection.query(statement) }
        try connection.query("""
            CREATE TABLE _checkpoint (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                position bigint NOT NULL,
                version integer NOT NULL,
                failed_position bigint,
                error text
            )
            """)
        try connection.query("INSERT INTO _checkpoint (position, version) VALUES (0, $1)", [projection.version])
        try connection.query("SET LOCAL search_path TO public")
    }

    /// The checkpoint of a schema, or nil when the schema does not exist.
    public static func checkpoint(_ schema: String, on connection: PostgresConnection, forUpdate: Bool = false) throws -> Checkpoint? {
        guard try exists(schema, on: connection) else { return nil }
        let row = try connection.query("""
            SELECT position, version, failed_position, error FROM \(connection.quoteIdentifier(schema))._checkpoint
            \(forUpdate ? "FOR UPDATE" : "")
            """)[0]
        return Checkpoint(position: try row.requireInt64(0), version: Int(try row.requireInt64(1)),
                          failedPosition: row.int64(2), error: row.string(3))
    }

    /// A checksum of a table's rows in a stable order, to compare a rebuild with the live
    /// projection (they must be byte-identical).
    public static func checksum(schema: String, table: String, on connection: PostgresConnection) throws -> String {
        let qualified = connection.quoteIdentifier(schema) + "." + connection.quoteIdentifier(table)
        return try connection.query("""
            SELECT count(*)::text || ':' || coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '')
            FROM \(qualified) t
            """)[0].requireString(0)
    }
}
