import Dispatch
import Postgres
import Synchronization
import Threads

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
        let next = Atomic<Int>(0)
        let failure = Mutex<(any Error)?>(nil)
        let failed = Atomic<Bool>(false)
        let latencies = Mutex<[Double]>([])
        let start = DispatchTime.now().uptimeNanoseconds
        ThreadGroup.run(connections.count, name: "bench-raw") { t in
            var mine: [Double] = []
            mine.reserveCapacity(count / connections.count + 1)
            defer { latencies.withLock { $0.append(contentsOf: mine) } }
            do {
                while !failed.load(ordering: .relaxed) {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < count else { return }
                    let statement = make(i)
                    let sent = DispatchTime.now().uptimeNanoseconds
                    let rows = try connections[t].query(statement.sql, statement.parameters)
                    mine.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e9)
                    guard rows.rowCount > 0 else {
                        throw BenchmarkFailure(.unexpectedResponse, "the raw statement returned no row")
                    }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
                failed.store(true, ordering: .relaxed)
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let error = failure.withLock({ $0 }) { throw error }
        return LatencySummary(latencies: latencies.withLock { $0 }, seconds: seconds)
    }
}
