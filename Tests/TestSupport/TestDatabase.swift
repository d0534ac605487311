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
    /// URL of a login role that is only a member of `ledger_service`, as the API runs.
    public let serviceURL: String
    /// URL of a login role that is only a member of `ledger_projector`, as the projector runs
    /// (migration 0011: it alone writes the projections).
    public let projectorURL: String
    /// The superuser URL of the cluster it is on.
    let clusterURL: String

    public static let serviceLogin = "ledger_test_service"
    public static let projectorLogin = "ledger_test_projector"
    /// The test logins' password: the test cluster wants one over TCP (`EmbeddedPostgres`).
    /// Not a secret: the cluster is a throwaway on loopback, its superuser's is random.
    public static let loginPassword = "ledger-test-login"

    private init(name: String, superuserURL: String, serviceURL: String, projectorURL: String, clusterURL: String) {
        self.name = name
        self.superuserURL = superuserURL
        self.serviceURL = serviceURL
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
        let db = TestDatabase(name: name, superuserURL: try url(clusterURL, user: nil, database: name),
                              serviceURL: try url(clusterURL, user: serviceLogin, database: name),
                              projectorURL: try url(clusterURL, user: projectorLogin, database: name), clusterURL: clusterURL)
        if migrated {
            let connection = try PostgresConnection(conninfo: db.superuserURL)
            try Migrator(migrations: try Migration.load(from: migrationsDirectory)).migrate(on: connection)
            try connection.query("UPDATE event_log_settings SET partition_size = $1", [partitionSize])
            try ensureServiceLogin(admin)
        }
        return db
    }

    /// Drops the database, closing whatever is still connected to it.
    public func drop() {
        guard let admin = try? PostgresConnection(conninfo: clusterURL) else { return }
        _ = try? admin.query("DROP DATABASE IF EXISTS \(admin.quoteIdentifier(name)) WITH (FORCE)")
    }

    /// The service login's URL of this database on another server that holds it (a
    /// streaming replica of its cluster, whose superuser URL is `cluster`).
    public func serviceURL(onCluster cluster: String) throws -> String {
        try Self.url(cluster, user: Self.serviceLogin, database: name)
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
    public func connectAsService() throws -> PostgresConnection { try PostgresConnection(conninfo: serviceURL) }
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

    /// Creates the service's and the projector's login roles on the cluster when missing
    /// (after migrations made `ledger_service` and `ledger_projector`); `create(migrated:
    /// true)` does it.
    public func ensureServiceLogin() throws {
        try Self.ensureServiceLogin(try PostgresConnection(conninfo: clusterURL))
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
