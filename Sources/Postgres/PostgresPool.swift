import Dispatch
import Synchronization

/// A fixed-size pool of connections to one database.
///
/// Connections are opened lazily, checked for a server restart before each loan (one
/// non-blocking `poll`), reopened when broken, and dropped when a command leaves them
/// unusable, so that the pool recovers from a database restart on its own.
///
/// The pool's connections may go through a pooler in transaction mode (PgBouncer): then
/// `directConninfo` names PostgreSQL itself, the pooled connections send their statements
/// unnamed, and work that holds session state (LISTEN, a session advisory lock, temporary
/// tables, a connection held for long) opens its connection on `directConninfo`.
public final class PostgresPool: Sendable {
    /// What the pool's connections open: PostgreSQL, or a pooler in transaction mode.
    public let conninfo: String
    /// PostgreSQL itself, with the same login: for connections that hold session state.
    /// The same as `conninfo` unless that names a pooler.
    public let directConninfo: String
    public let maximumConnections: Int
    private let permits: DispatchSemaphore
    private let idle = Mutex<[PostgresConnection]>([])
    private let acquireTimeout: Double

    /// - Parameters:
    ///   - conninfo: the database, or a pooler in transaction mode in front of it.
    ///   - directConninfo: when `conninfo` names a pooler, the database itself with the same
    ///     login; nil (or `conninfo`) when `conninfo` is the database.
    public init(conninfo: String, directConninfo: String? = nil, maximumConnections: Int = 8, acquireTimeout: Double = 30) {
        precondition(maximumConnections > 0)
        self.conninfo = conninfo
        self.directConninfo = directConninfo ?? conninfo
        self.maximumConnections = maximumConnections
        self.permits = DispatchSemaphore(value: maximumConnections)
        self.acquireTimeout = acquireTimeout
    }

    /// Lends a connection for the duration of `body`.
    ///
    /// A body that throws `connectionLost` before it changed anything can be retried by
    /// the caller; the pool never retries by itself, since only the caller knows whether
    /// its work is safe to repeat.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard permits.wait(timeout: .now() + acquireTimeout) == .success else {
            throw PostgresError(code: .poolTimeout, message: "no database connection became free within \(acquireTimeout)s")
        }
        defer { permits.signal() }
        let connection = try checkout()
        do {
            let value = try body(connection)
            checkin(connection)
            return value
        } catch {
            checkin(connection)
            throw error
        }
    }

    /// Whether the pool's connections go through a pooler in transaction mode, so that no
    /// session state may be left on them between transactions.
    public var isBehindTransactionPooler: Bool { directConninfo != conninfo }

    /// Lends a connection that may hold session state for the duration of `body` (a
    /// session advisory lock, temporary tables): one of the pool's when they reach
    /// PostgreSQL itself, else one opened on `directConninfo` for `body` and closed after it.
    public func withSessionConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard isBehindTransactionPooler else { return try withConnection(body) }
        return try body(try PostgresConnection(conninfo: directConninfo))
    }

    /// Runs `body` in a transaction on a pooled connection.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { try $0.transaction(body) }
    }

    /// Runs read-only work, retried once on a fresh connection if the first one was lost.
    public func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try withConnection(body)
        } catch let error as PostgresError where error.code == .connectionLost {
            return try withConnection(body)
        }
    }

    /// Closes every idle connection (e.g. before the database is dropped in tests).
    public func closeIdle() {
        idle.withLock { $0.removeAll() }
    }

    private func checkout() throws -> PostgresConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isAliveWithoutBlocking() { return connection }
            if (try? connection.reset()) != nil { return connection }
        }
        return try PostgresConnection(conninfo: conninfo, statements: isBehindTransactionPooler ? .unnamed : .prepared)
    }

    private func checkin(_ connection: PostgresConnection) {
        guard connection.isOpen else { return }
        if connection.inTransaction {
            // A body that escaped with an open transaction must not leak it to the next user.
            guard (try? connection.query("ROLLBACK")) != nil else { return }
        }
        idle.withLock { $0.append(connection) }
    }
}
