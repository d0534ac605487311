import Foundation
import Postgres

/// The throwaway PostgreSQL cluster the test command starts (`scripts/test.sh`), named by
/// `LEDGER_TEST_DATABASE_URL` (a superuser URL). Integration tests fail, rather than skip,
/// when it is missing: a test that silently does not run cannot fail.
public enum TestPostgres {
    public static let urlVariable = "LEDGER_TEST_DATABASE_URL"

    public static func requireURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[urlVariable], !url.isEmpty else {
            throw MissingDatabase()
        }
        return url
    }

    /// Opens a superuser connection to the cluster's default database.
    public static func connect() throws -> PostgresConnection {
        try PostgresConnection(conninfo: requireURL())
    }

    public struct MissingDatabase: Error, CustomStringConvertible {
        public var description: String {
            "\(TestPostgres.urlVariable) is not set: run the tests with `make test` (scripts/test.sh), which starts a throwaway PostgreSQL"
        }
    }
}
