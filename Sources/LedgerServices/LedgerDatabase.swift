import EventStore
import LedgerDomain
import Postgres

/// The ledger's database as a front end holds it: the event log's store and the
/// connections its reads and acts run on. A front end (the console, a tool) keeps one and
/// asks it for runners; it never reaches the tables itself.
public struct LedgerDatabase: Sendable {
    public let store: EventStore
    public let connections: PostgresPool

    public init(store: EventStore, connections: PostgresPool) {
        self.store = store
        self.connections = connections
    }

    /// The shared acts, on this database and `now`.
    public func acts(now: @escaping LedgerClock) -> ActRunner { ActRunner(store: store, connections: connections, now: now) }

    /// The shared queries, on this database (its primary) and `clock`.
    public func queries(clock: @escaping LedgerClock) -> QueryRunner { QueryRunner(connections: connections, clock: clock) }

    /// The operators and their credentials.
    public var operators: OperatorDirectory { OperatorDirectory(connections: connections) }

    /// The console's sessions.
    public var consoleSessions: ConsoleSessionStore { ConsoleSessionStore(connections: connections) }

    /// The connection string, for work that holds a connection of its own (a verification
    /// of the chain, a rebuild): PostgreSQL itself, never a pooler in transaction mode.
    public var conninfo: String { connections.directConninfo }
}
