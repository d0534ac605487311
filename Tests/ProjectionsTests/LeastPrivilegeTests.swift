import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The role the API and the console run as reads the projections and
/// writes none of them; the projector's role alone does (migration 0011).
@Suite("Least privilege: the service's role reads the projections, the projector's alone writes them", .bounded)
struct LeastPrivilegeTests {
    /// Every table of every projection schema, as (schema, table, first column).
    static func tables(on connection: PostgresConnection) throws -> [(String, String, String)] {
        try connection.query("""
            SELECT n.nspname, c.relname, (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = 1)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname LIKE 'proj\\_%' AND c.relkind IN ('r', 'p') ORDER BY 1, 2
            """).rows.map { (try $0.requireString(0), try $0.requireString(1), try $0.requireString(2)) }
    }

    /// What the service's login may and may not do on every projection table.
    static func checkServiceIsReadOnly(_ db: TestDatabase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let superuser = try db.connect()
        let tables = try tables(on: superuser)
        #expect(tables.count >= 20, "every projection's tables, _checkpoint and _set_aside included: \(tables.count)", sourceLocation: sourceLocation)
        let service = try db.connectAsWriter()
        for (schema, table, column) in tables {
            let name = service.quoteIdentifier(schema) + "." + service.quoteIdentifier(table)
            let col = service.quoteIdentifier(column)
            _ = try service.query("SELECT count(*) FROM \(name)")
            for statement in ["INSERT INTO \(name) DEFAULT VALUES", "UPDATE \(name) SET \(col) = \(col)", "DELETE FROM \(name)",
                              "TRUNCATE \(name)"] {
                do {
                    try service.query(statement)
                    Issue.record("the service's role may run \(statement)", sourceLocation: sourceLocation)
                } catch let error as PostgresError {
                    #expect(error.sqlState == PostgresError.SQLState.insufficientPrivilege, "\(statement): \(error)",
                            sourceLocation: sourceLocation)
                }
            }
        }
        // Nor can it make a schema of its own, or alter one.
        for statement in ["CREATE SCHEMA proj_forged", "ALTER SCHEMA proj_billing RENAME TO proj_billing__old",
                          "CREATE TABLE proj_billing.forged (x int)", "DROP TABLE proj_billing.keys"] {
            do {
                try service.query(statement)
                Issue.record("the service's role may run \(statement)", sourceLocation: sourceLocation)
            } catch let error as PostgresError {
                #expect(error.sqlState == PostgresError.SQLState.insufficientPrivilege || error.sqlState == "42501",
                        "\(statement): \(error)", sourceLocation: sourceLocation)
            }
        }
        // The owner of every schema and table is the projector's role.
        let owners = try superuser.query("""
            SELECT DISTINCT pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname LIKE 'proj\\_%' AND c.relkind IN ('r', 'p')
            UNION SELECT DISTINCT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname LIKE 'proj\\_%'
            """).rows.map { $0.string(0) }
        #expect(owners == ["ledger_projector"], "\(owners)", sourceLocation: sourceLocation)
    }

    @Test("on every proj_ table, after the projector made them and after a rebuild swapped them in: SELECT yes, INSERT/UPDATE/DELETE/TRUNCATE no")
    func serviceCannotWriteProjections() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        let key = KeyIssued(keyID: "key_a", principal: KeyPrincipal(kind: .project, id: "a"), sha256: String(repeating: "ab", count: 32), prefix: "sk_live_abcd")
        _ = try store.append(AppendRequest(EventToAppend(stream: "key-key_a", type: KeyIssued.type, data: try JSONValueEncoder().encode(key),
                                                         metadata: EventMetadata(actor: Actor(.operator, "test"), reason: "test"))))
        let projector = ProjectorThread(url: db.projectorURL, batchSize: 50, pollInterval: 0.05)
        #expect(try waitForProjections(AllProjections.all, url: db.writerURL))
        projector.stop()
        try Self.checkServiceIsReadOnly(db)
        // What the service's role could do before migration 0011: mint a key or un-revoke one
        // with no event in the log.
        let service = try db.connectAsWriter()
        #expect(throws: PostgresError.self) { try service.query("UPDATE proj_billing.keys SET revoked = false") }
        // A rebuild (as `ledger replay`) hands its new schemas over the same way.
        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 10, log: { _, _, _ in }).rebuild(AllProjections.all)
        try Self.checkServiceIsReadOnly(db)
        // And the service's role may not rebuild one itself.
        #expect(throws: (any Error).self) {
            try ProjectionRebuilder(conninfo: db.writerURL, batchSize: 10, log: { _, _, _ in }).rebuild([BillingProjection()])
        }
    }

    @Test("migration 0011 moves schemas made before it (owned by the service's login) to the projector's role")
    func migrationMovesOldSchemas() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let projector = ProjectorThread(url: db.projectorURL, batchSize: 50, pollInterval: 0.05)
        #expect(try waitForProjections(AllProjections.all, url: db.writerURL))
        projector.stop()
        // The layout before 0011: the service's login owned the schemas it projected into.
        let superuser = try db.connect()
        for (schema, table, _) in try Self.tables(on: superuser) {
            try superuser.query("ALTER TABLE \(superuser.quoteIdentifier(schema)).\(superuser.quoteIdentifier(table)) OWNER TO \(TestDatabase.writerLogin)")
        }
        for schema in Set(try Self.tables(on: superuser).map(\.0)) {
            try superuser.query("ALTER SCHEMA \(superuser.quoteIdentifier(schema)) OWNER TO \(TestDatabase.writerLogin)")
        }
        let migration = try String(contentsOfFile: TestDatabase.migrationsDirectory + "/0011_projector_role.sql", encoding: .utf8)
        try superuser.transaction { try $0.query(migration) }
        try Self.checkServiceIsReadOnly(db)
    }
}
