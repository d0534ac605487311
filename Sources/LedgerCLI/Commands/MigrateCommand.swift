import EventStore
import Foundation
import Postgres

/// `ledger migrate`: applies the numbered files of `sql/` in order, each once.
public enum MigrateCommand: LedgerCommand {
    public static let name = "migrate"
    public static let summary = "Apply pending migrations from sql/ (each once, checksummed)."
    public static let usage = """
        usage: ledger migrate [--status]

        Applies every pending migration in order, each in its own transaction with the row
        that records the SHA-256 of its statements (comment lines, blank lines and trailing
        blanks left out, so a comment may be reworded). A migration whose statements changed
        after it was applied is an error: add a new migration instead.

          --status   list applied and pending migrations, change nothing (exit 3 if any pending)

        Uses LEDGER_MIGRATION_DATABASE_URL when set (a role that owns the schema and may
        create the ledger_service role), else LEDGER_DIRECT_DATABASE_URL (migrations hold a
        session lock, which PgBouncer in transaction mode cannot keep), else DATABASE_URL,
        else the owner's URL of the cluster `ledger dev` made (LEDGER_DATA_DIR/demo.json).
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], boolean: ["status"])
        let url = try environment.migrationDatabaseURL()
        let migrator = Migrator(migrations: try environment.migrations())
        let connection = try PostgresConnection(conninfo: url)
        if args.flag("status") {
            let status = try migrator.status(on: connection)
            for version in status.applied { print("applied  \(version)") }
            for migration in status.pending { print("pending  \(migration.version) \(migration.name)") }
            return status.isCurrent ? 0 : 3
        }
        let applied = try migrator.migrate(on: connection) { print($0) }
        if applied.isEmpty { print("migrations are current") }
        return 0
    }
}
