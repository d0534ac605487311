import LedgerCLI
import Postgres

/// The baseline of an HTTP read: the same statement, with the same parameters, run in a
/// closed loop straight through libpq by `concurrency` threads, each on its own
/// connection, as `HTTPLoad` runs the requests.
enum RawStatementLoad {
    typealias Statement = (sql: String, parameters: [any PostgresBindable])

    /// Runs `warmup` unmeasured statements, then `count` measured ones; `make(i)` builds
    /// the i-th. A statement that returns no row fails the run (the reads always return one).
    static func run(conninfo: String, concurrency: Int, count: Int, warmup: Int = 0,
                    make: @escaping @Sendable (Int) -> Statement) throws -> LatencySummary {
        let connections = try (0..<concurrency).map { _ in try PostgresConnection(conninfo: conninfo) }
        if warmup > 0 { _ = try series(connections, count: warmup, make: make) }
        return try series(connections, count: count, make: make)
    }

    private static func series(_ connections: [PostgresConnection], count: Int,
                               make: @escaping @Sendable (Int) -> Statement) throws -> LatencySummary {
        try ClosedLoop.run(concurrency: connections.count, count: count, name: "bench-raw") { thread in
            let connection = connections[thread]
            return { i in
                let statement = make(i)
                guard try connection.query(statement.sql, statement.parameters).rowCount > 0 else {
                    throw BenchmarkFailure(.unexpectedResponse, "the raw statement returned no row")
                }
            }
        }
    }
}
