import Foundation
import Postgres

/// DATABASE_URL through a pooler in transaction mode, and LEDGER_DIRECT_DATABASE_URL
/// beside it for what holds session state (docs/scaling.md, "PgBouncer").
///
/// Only DATABASE_URL may name a pooler: LEDGER_PROJECTOR_DATABASE_URL and
/// LEDGER_MIGRATION_DATABASE_URL serve work that holds session state throughout (the
/// projector's engine, rebuilds, migrations), and the read replicas are polled on
/// connections of their own, so each of those names PostgreSQL itself.
extension LedgerEnvironment {
    /// PostgreSQL itself for `url`, one of this process's logins: LEDGER_DIRECT_DATABASE_URL
    /// when `url` is DATABASE_URL and it is set, else `url`. Refused when the two name
    /// different logins: what holds session state (the appender above all, whose login
    /// records an operator's acts) must run as the process's own login.
    public func directDatabaseURL(for url: String) throws -> String {
        guard let direct = string(.directDatabaseURL), let pooled = string(.databaseURL), url == pooled else { return url }
        guard direct.hasPrefix("postgresql://") || direct.hasPrefix("postgres://") else {
            throw ConfigurationError(setting: .directDatabaseURL, problem: "wants a postgresql:// URL (it is not repeated here: it may hold a password)")
        }
        if let pooledUser = URLComponents(string: pooled)?.user, let directUser = URLComponents(string: direct)?.user, pooledUser != directUser {
            throw ConfigurationError(setting: .directDatabaseURL,
                problem: "logs in as \(directUser), DATABASE_URL as \(pooledUser): it must be the same login, straight to PostgreSQL")
        }
        return direct
    }

    /// A pool on `url` whose session-holding work reaches PostgreSQL itself
    /// (`directDatabaseURL(for:)`); its connections send unnamed statements when the two differ.
    public func databasePool(_ url: String, maximumConnections: Int) throws -> PostgresPool {
        PostgresPool(conninfo: url, directConninfo: try directDatabaseURL(for: url), maximumConnections: maximumConnections)
    }
}
