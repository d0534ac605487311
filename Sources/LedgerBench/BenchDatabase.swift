import Crypto
import EventStore
import Foundation
import LedgerCLI
import Postgres
import Synchronization

/// The database a benchmark writes into: always one it made itself, on the server that
/// DATABASE_URL names. A benchmark appends hundreds of thousands of permanent events to a
/// hash-chained log, so it never writes into a log it did not create: a database of its
/// own name that it did not make (no marker comment) is refused, and so is a server where
/// DATABASE_URL's role may not create databases.
enum BenchDatabase {
    /// The comment on every database a benchmark makes.
    static let marker = "made by ledger-bench: a throwaway database a benchmark writes into"

    /// The URL of database `name`, made by this benchmark and migrated: made afresh (a
    /// former one of the same name dropped), unless `reuse` and it exists, made by
    /// ledger-bench, when it is kept as it is (the read benchmarks' logs take minutes to
    /// build). It stays after the run, to be looked at; the next run of the same benchmark
    /// drops it.
    static func prepare(_ name: String, reuse: Bool, environment: LedgerEnvironment) throws -> String {
        let server = try environment.databaseURL()
        guard var components = URLComponents(string: server), components.host != nil else {
            throw UsageError("DATABASE_URL must be a postgresql:// URL of the server to make the benchmark's database on")
        }
        let admin = try PostgresConnection(conninfo: server)
        let quoted = admin.quoteIdentifier(name)
        let existing = try admin.query("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = $1", [name])
        if existing.rowCount == 1, existing.rows[0].string(0) != marker {
            throw UsageError("a database \(name) exists on this server that ledger-bench did not make: a benchmark writes only into its own databases; drop or rename it, or point DATABASE_URL at another server")
        }
        let made = existing.rowCount == 0 || !reuse
        if made {
            // Checked before anything is dropped: a role that may not create the database
            // must find the one an earlier run made as it was.
            let allowed = try admin.query("SELECT rolsuper OR rolcreatedb FROM pg_roles WHERE rolname = current_user")
            guard allowed.rows.first?.bool(0) == true else {
                throw UsageError("a benchmark makes a database of its own and DATABASE_URL's role may not create one (CREATEDB): use a throwaway server, as `make bench` does")
            }
            if existing.rowCount == 1 { try admin.query("DROP DATABASE \(quoted) WITH (FORCE)") }
            try admin.query("CREATE DATABASE \(quoted) ENCODING 'UTF8' TEMPLATE template0")
            try admin.query("COMMENT ON DATABASE \(quoted) IS '\(marker)'")
        }
        components.path = "/" + name
        guard let url = components.string else { throw UsageError("cannot name database \(name) in DATABASE_URL") }
        try Migrator(migrations: try environment.migrations()).migrate(on: try PostgresConnection(conninfo: url)) { _ in }
        BenchOutput.line("database: \(name) on \(components.host ?? "?"):\(components.port ?? 5432), \(made ? "made for this run" : "reused (made by an earlier run)")")
        return url
    }

    /// The login the benchmark's API runs as on database `url` (one it made): a member of
    /// `ledger_service` alone, as `ledger serve` runs, so that the log's checks of who
    /// may append what (migration 0013) are measured as production pays them, where the
    /// superuser skips them. Made on the server when missing, with a new password each run.
    static func apiLogin(on url: String) throws -> String {
        try login("ledger_bench_api", in: "ledger_service", on: url)
    }

    /// The login of what runs beside the projector (the notification history sync) on
    /// database `url`: a member of `ledger_projector` alone, as `ledger project` runs, so that
    /// its appends pay the same check of who may append what as the API's do.
    static func projectorLogin(on url: String) throws -> String {
        try login("ledger_bench_projector", in: "ledger_projector", on: url)
    }

    /// Each login's password, drawn once per process: two benchmarks of one process (the
    /// tests run them side by side on one cluster) set the same one, where a new one would
    /// lock the other's new connections out.
    private static let passwords = Mutex<[String: String]>([:])

    /// The URL of `login` on database `url`, a member of `group` alone: made on the server
    /// when missing, with a new password each run.
    private static func login(_ login: String, in group: String, on url: String) throws -> String {
        let admin = try PostgresConnection(conninfo: url)
        if try admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [login]).rowCount == 0 {
            do {
                try admin.query("CREATE ROLE \(admin.quoteIdentifier(login)) LOGIN IN ROLE \(admin.quoteIdentifier(group))")
            } catch let error as PostgresError where error.sqlState == "42710" {
                // Made meanwhile by another benchmark on the same server.
            }
        }
        let password = passwords.withLock { known in
            if let password = known[login] { return password }
            let drawn = Hex.encode(SecureRandom.bytes(16))
            known[login] = drawn
            return drawn
        }
        try admin.setPassword(role: login, password: password)
        guard let loginURL = PostgresURL.with(user: login, password: password, url) else {
            throw UsageError("cannot name the login \(login) in DATABASE_URL")
        }
        return loginURL
    }
}
