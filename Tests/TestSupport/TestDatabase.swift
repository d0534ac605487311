import Crypto
import EventStore
import Foundation
import Postgres

/// A fresh database on the test cluster, migrated, dropped at the end of the test.
///
/// Each test gets its own, so tests run in parallel without seeing each other's events.
public final class TestDatabase: Sendable {
    public let name: String
    /// Superuser URL of this database (for tampering and inspection).
    public let superuserURL: String
    /// URL of the tests' writer: a login in `ledger_service` that this database's
    /// `event_writers` also lets append any event type, with the console's tables granted
    /// to it: it reads and appends as a non-owner, as the services do, without being held
    /// to one surface's event types (`apiURL` is).
    public let writerURL: String
    /// URL of a login that is only a member of `ledger_service`, as the API runs (migration
    /// 0013: it appends only the API's event types).
    public let apiURL: String
    /// URL of a login that is only a member of `ledger_console`, as the console runs.
    public let consoleURL: String
    /// URL of a login role that is only a member of `ledger_projector`, as the projector runs
    /// (migration 0011: it alone writes the projections).
    public let projectorURL: String
    /// The superuser URL of the cluster it is on.
    let clusterURL: String

    public static let writerLogin = "ledger_test_service"
    public static let apiLogin = "ledger_test_api"
    public static let consoleLogin = "ledger_test_console"
    public static let projectorLogin = "ledger_test_projector"
    /// The test logins' password: the test cluster wants one over TCP (`EmbeddedPostgres`).
    /// Not a secret: the cluster is a throwaway on loopback, its superuser's is random.
    public static let loginPassword = "ledger-test-login"

    private init(name: String, superuserURL: String, projectorURL: String, clusterURL: String) throws {
        self.name = name
        self.superuserURL = superuserURL
        self.writerURL = try Self.url(clusterURL, user: Self.writerLogin, database: name)
        self.apiURL = try Self.url(clusterURL, user: Self.apiLogin, database: name)
        self.consoleURL = try Self.url(clusterURL, user: Self.consoleLogin, database: name)
        self.projectorURL = projectorURL
        self.clusterURL = clusterURL
    }

    /// Partitions of this size make the suite's logs cross partition boundaries, where the
    /// default (ten million positions) would put every test in one partition.
    public static let partitionSize: Int64 = 5_000

    /// Creates and (by default) migrates a new database, on the test command's cluster or
    /// on `cluster` (a superuser URL, e.g. a `TestCluster`'s), with partitions of the log
    /// `partitionSize` positions long.
    public static func create(migrated: Bool = true, cluster: String? = nil, partitionSize: Int64 = partitionSize) throws -> TestDatabase {
        let clusterURL = try cluster ?? TestPostgres.requireURL()
        let name = "ledger_test_" + Hex.encode(SecureRandom.bytes(6))
        let admin = try PostgresConnection(conninfo: clusterURL)
        try admin.query("CREATE DATABASE \(admin.quoteIdentifier(name)) ENCODING 'UTF8' TEMPLATE template0")
        let db = try TestDatabase(name: name, superuserURL: try url(clusterURL, user: nil, database: name),
                                  projectorURL: try url(clusterURL, user: projectorLogin, database: name), clusterURL: clusterURL)
        if migrated {
            let connection = try PostgresConnection(conninfo: db.superuserURL)
            try Migrator(migrations: try Migration.load(from: migrationsDirectory)).migrate(on: connection)
            try connection.query("UPDATE event_log_settings SET partition_size = $1", [partitionSize])
            try ensureServiceLogin(admin)
            try grantWriter(on: connection)
        }
        return db
    }

    /// Drops the database, closing whatever is still connected to it.
    public func drop() {
        guard let admin = try? PostgresConnection(conninfo: clusterURL) else { return }
        _ = try? admin.query("DROP DATABASE IF EXISTS \(admin.quoteIdentifier(name)) WITH (FORCE)")
    }

    /// The same database reached through `cluster`, another superuser URL of the servers
    /// that hold it: a libpq multi-host URL that follows a failover, say.
    public func reached(through cluster: String) throws -> TestDatabase {
        try TestDatabase(name: name, superuserURL: try Self.url(cluster, user: nil, database: name),
                         projectorURL: try Self.url(cluster, user: Self.projectorLogin, database: name), clusterURL: cluster)
    }

    /// The writer login's URL of this database on another server that holds it (a
    /// streaming replica of its cluster, whose superuser URL is `cluster`).
    public func writerURL(onCluster cluster: String) throws -> String {
        try Self.url(cluster, user: Self.writerLogin, database: name)
    }

    /// The URL of an operator's own login, `name`, a member of `ledger_operator` alone (made
    /// on the cluster when missing): `ledger admin` records its acts under that name.
    public func operatorURL(_ name: String) throws -> String {
        let admin = try PostgresConnection(conninfo: clusterURL)
        if try admin.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [name]).rowCount == 0 {
            do {
                try admin.query("CREATE ROLE \(admin.quoteIdentifier(name)) LOGIN PASSWORD '\(Self.loginPassword)' IN ROLE ledger_operator")
            } catch let error as PostgresError where error.sqlState == "42710" || error.sqlState == "23505" {
                // Another test made it meanwhile.
            }
        }
        return try Self.url(clusterURL, user: name, database: self.name)
    }

    /// The projector login's URL of this database on another server that holds it.
    public func projectorURL(onCluster cluster: String) throws -> String {
        try Self.url(cluster, user: Self.projectorLogin, database: name)
    }

    /// The superuser URL of this database on another server that holds it.
    public func superuserURL(onCluster cluster: String) throws -> String {
        try Self.url(cluster, user: nil, database: name)
    }

    public func connect() throws -> PostgresConnection { try PostgresConnection(conninfo: superuserURL) }
    public func connectAsWriter() throws -> PostgresConnection { try PostgresConnection(conninfo: writerURL) }
    public func connectAsAPI() throws -> PostgresConnection { try PostgresConnection(conninfo: apiURL) }
    public func connectAsProjector() throws -> PostgresConnection { try PostgresConnection(conninfo: projectorURL) }

    /// The repository's `sql/` folder.
    public static var migrationsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sql").path
    }

    /// The repository root.
    public static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Creates the tests' logins on the cluster when missing (after migrations made the
    /// group roles), and lets the writer login append anything in this database;
    /// `create(migrated: true)` does it.
    public func ensureServiceLogin() throws {
        try Self.ensureServiceLogin(try PostgresConnection(conninfo: clusterURL))
        try Self.grantWriter(on: try connect())
    }

    /// The writer login's rights beyond `ledger_service`'s, in this database alone: any
    /// event type, and the console's tables.
    private static func grantWriter(on connection: PostgresConnection) throws {
        try connection.query("INSERT INTO event_writers (role, event_type) VALUES ($1, '*') ON CONFLICT DO NOTHING", [writerLogin])
        try connection.query("GRANT SELECT, INSERT ON console_credentials TO \(writerLogin)")
        try connection.query("GRANT SELECT, INSERT, UPDATE, DELETE ON console_sessions TO \(writerLogin)")
    }

    private static func ensureServiceLogin(_ admin: PostgresConnection) throws {
        try admin.query("""
            DO $$
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledger_test_service') THEN
                    CREATE ROLE ledger_test_service LOGIN PASSWORD 'ledger-test-login' IN ROLE ledger_service;
                END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledger_test_projector') THEN
                    CREATE ROLE ledger_test_projector LOGIN PASSWORD 'ledger-test-login' IN ROLE ledger_projector;
                END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledger_test_api') THEN
                    CREATE ROLE ledger_test_api LOGIN PASSWORD 'ledger-test-login' IN ROLE ledger_service;
                END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledger_test_console') THEN
                    CREATE ROLE ledger_test_console LOGIN PASSWORD 'ledger-test-login' IN ROLE ledger_console;
                END IF;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
            END $$
            """)
    }

    private static func url(_ base: String, user: String?, database: String) throws -> String {
        guard var components = URLComponents(string: base) else {
            throw PostgresError(code: .connectionFailed, message: "\(TestPostgres.urlVariable) is not a URL")
        }
        if let user { components.user = user; components.password = loginPassword }
        components.path = "/" + database
        return components.string!
    }
}
