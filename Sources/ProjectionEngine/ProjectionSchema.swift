import EventStore
import Postgres

/// Creating, naming and inspecting the schemas projections live in.
///
/// Each schema holds the projection's tables and a one-row `_checkpoint` table: the
/// projection's progress (the position applied so far, the code version that built it,
/// and a failure if it stopped). Because it lives inside the schema, swapping a rebuilt
/// schema in swaps its progress with it, atomically. (In the code, "checkpoint" names
/// only the log's signed checkpoints; the table keeps the name it was created with.)
public enum ProjectionSchema {
    /// How far a projection has got: what its `_checkpoint` row holds.
    public struct Progress: Sendable, Equatable {
        public var position: Int64
        public var version: Int
        /// Set when the projection stopped on a poison event.
        public var failedPosition: Int64?
        public var error: String?
    }

    static func buildSchema(of projection: any Projection) -> String { projection.schema + "__build" }
    static func oldSchema(of projection: any Projection) -> String { projection.schema + "__old" }

    /// The schemas of `schemas` the connection's role may swap a rebuild in for (renaming
    /// a schema takes its owner, or a member of the owning role).
    public static func swappable(_ schemas: [String], on connection: PostgresConnection) throws -> Set<String> {
        Set(try connection.query("""
            SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[]) AND pg_has_role(nspowner, 'MEMBER')
            """, [PostgresTextArray(schemas)]).rows.map { try $0.requireString(0) })
    }

    /// Whether a schema exists.
    public static func exists(_ schema: String, on connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]).rowCount == 1
    }

    /// Creates an empty schema for a projection, with its checkpoint at 0; a rebuild
    /// defers the projection's `deferredIndexesSQL` to `createDeferredIndexes`.
    static func create(_ schema: String, for projection: any Projection, deferringIndexes: Bool = false,
                       on connection: PostgresConnection) throws {
        let quoted = connection.quoteIdentifier(schema)
        try connection.query("CREATE SCHEMA \(quoted)")
        try connection.query("SET LOCAL search_path TO \(quoted), public")
        for statement in projection.tablesSQL { try connection.query(statement) }
        if !deferringIndexes {
            for statement in projection.deferredIndexesSQL { try connection.query(statement) }
        }
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
        try createSetAsideTable(in: schema, on: connection)
        try handOver(schema, on: connection)
    }

    /// Creates the indexes `create` deferred, in one transaction: a unique index that the
    /// rows break fails the rebuild here, before anything is compared or swapped.
    static func createDeferredIndexes(_ schema: String, for projection: any Projection, on connection: PostgresConnection) throws {
        guard !projection.deferredIndexesSQL.isEmpty else { return }
        try connection.transaction { tx in
            try tx.query("SET LOCAL search_path TO \(tx.quoteIdentifier(schema)), public")
            // Sorted in memory rather than in temporary files, for the journal of a large log.
            try tx.query("SET LOCAL maintenance_work_mem TO '256MB'")
            for statement in projection.deferredIndexesSQL { try tx.query(statement) }
        }
    }

    /// Gathers the planner's statistics for every table of the schema. A rebuild's tables
    /// start empty and grow faster than autovacuum looks at them (its naptime is a
    /// minute): without statistics the planner takes `key = ANY(the batch's keys)` on a
    /// unique key to match a fraction of the table and scans all of it, for every batch
    /// (webhooks' plan lookups read 504,100 rows in a replay of 1,000,000 events,
    /// docs/benchmarks.md). Once a unique column has statistics its lookups go through
    /// its index however much the table grows after. A small sample says that much: 3,000
    /// rows (a statistics target of 10) rather than the default 30,000, which cost the
    /// journal's analysis 87 ms of the rebuild's slowest fold at 290,000 rows; autovacuum
    /// gathers the full statistics once the tables are live.
    static func analyze(_ schema: String, on connection: PostgresConnection) throws {
        let tables = try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", [schema])
        let names = try tables.rows.map { "\(connection.quoteIdentifier(schema)).\(connection.quoteIdentifier(try $0.requireString(0)))" }
        guard !names.isEmpty else { return }
        try connection.transaction { tx in
            try tx.query("SET LOCAL default_statistics_target TO 10")
            try tx.query("ANALYZE \(names.joined(separator: ", "))")
        }
    }

    /// The events this projection skipped because an operator set them aside: one row
    /// each, from the set-aside event alone, so that a replay writes the same rows.
    static func createSetAsideTable(in schema: String, on connection: PostgresConnection) throws {
        try connection.query("""
            CREATE TABLE IF NOT EXISTS \(connection.quoteIdentifier(schema))._set_aside (
                position bigint PRIMARY KEY,
                event_type text NOT NULL,
                error text NOT NULL,
                set_aside_at bigint NOT NULL,
                reason text NOT NULL
            )
            """)
    }

    /// The progress of a schema's projection, or nil when the schema does not exist.
    public static func progress(_ schema: String, on connection: PostgresConnection, forUpdate: Bool = false) throws -> Progress? {
        guard try exists(schema, on: connection) else { return nil }
        let row = try connection.query("""
            SELECT position, version, failed_position, error FROM \(connection.quoteIdentifier(schema))._checkpoint
            \(forUpdate ? "FOR UPDATE" : "")
            """)[0]
        return Progress(position: try row.requireInt64(0), version: Int(try row.requireInt64(1)),
                          failedPosition: row.int64(2), error: row.string(3))
    }

    /// The progress of `schemas`' projections, by schema, in two statements whatever their
    /// number (which exist, then all their rows together); a schema not created yet has none.
    /// Readiness reads them every second and each read replica's poll ten times a second.
    public static func progress(of schemas: [String], on connection: PostgresConnection) throws -> [String: Progress] {
        let existing = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname = ANY($1::text[])",
                                            [PostgresTextArray(schemas)]).rows.map { try $0.requireString(0) }
        guard !existing.isEmpty else { return [:] }
        // The index names the schema: only identifiers, quoted, are written into the statement.
        let statement = existing.enumerated().map { i, schema in
            "SELECT \(i), position, version, failed_position, error FROM \(connection.quoteIdentifier(schema))._checkpoint"
        }.joined(separator: " UNION ALL ")
        var out: [String: Progress] = [:]
        for row in try connection.query(statement).rows {
            out[existing[Int(try row.requireInt64(0))]] = Progress(position: try row.requireInt64(1), version: Int(try row.requireInt64(2)),
                                                                   failedPosition: row.int64(3), error: row.string(4))
        }
        return out
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

extension ProjectionSchema {
    /// One event a projection skipped because it was set aside.
    public struct SkippedEvent: Sendable, Codable, Equatable {
        public var position: Int64
        public var eventType: String
        public var error: String
        /// The position of the `projection.event_set_aside` event.
        public var setAsideAt: Int64
        public var reason: String
        enum CodingKeys: String, CodingKey { case position, error, reason, eventType = "event_type", setAsideAt = "set_aside_at" }
    }

    /// What the projection in `schema` skipped, oldest first; empty when it has no record.
    public static func skippedEvents(_ schema: String, on connection: PostgresConnection) throws -> [SkippedEvent] {
        guard try connection.query("SELECT to_regclass($1) IS NOT NULL", [connection.quoteIdentifier(schema) + "._set_aside"])[0]
            .bool(0) == true else { return [] }
        return try connection.query("""
            SELECT position, event_type, error, set_aside_at, reason FROM \(connection.quoteIdentifier(schema))._set_aside ORDER BY position
            """).rows.map { r in
            SkippedEvent(position: try r.requireInt64(0), eventType: try r.requireString(1), error: try r.requireString(2),
                         setAsideAt: try r.requireInt64(3), reason: try r.requireString(4))
        }
    }
}
