import BenchHTTP
import Dispatch
import HTTP
import LedgerCLI
import Synchronization
import Threads

/// A closed loop of HTTP requests: `concurrency` threads, each with its own keep-alive
/// `HTTPClient`, take request numbers from a shared counter until `count` are done, and
/// each request's latency is kept; with `interval`, paced (`ClosedLoop`).
enum HTTPLoad {
    /// One request to send.
    struct Request: Sendable {
        var method = "GET"
        var path: String
        var headers: [(String, String)] = []
        var body: [UInt8] = []
    }

    /// A response as the caller's check sees it.
    typealias Response = (status: Int, headers: HTTPHeaders, body: [UInt8])

    /// Sends `warmup` unmeasured requests, then `count` measured ones. `make(i)` builds the
    /// i-th request; `check` sees every response and throws to stop the run (the default
    /// accepts only 200). The first failure is rethrown after every thread has stopped.
    static func run(port: Int, concurrency: Int, count: Int, warmup: Int = 0, interval: Double? = nil,
                    make: @escaping @Sendable (Int) -> Request,
                    check: @escaping @Sendable (Request, Response) throws -> Void = expectOK) throws -> LatencySummary {
        if warmup > 0 {
            _ = try series(port: port, concurrency: concurrency, count: warmup, make: make, check: check)
        }
        return try series(port: port, concurrency: concurrency, count: count, interval: interval, make: make, check: check)
    }

    /// Fails on any status but 200, quoting the start of the body.
    @Sendable static func expectOK(_ request: Request, _ response: Response) throws {
        guard response.status == 200 else {
            throw BenchmarkFailure(.unexpectedResponse, "\(request.method) \(request.path) answered \(response.status): "
                                   + String(decoding: response.body.prefix(300), as: UTF8.self))
        }
    }

    private static func series(port: Int, concurrency: Int, count: Int, interval: Double? = nil, make: @escaping @Sendable (Int) -> Request,
                               check: @escaping @Sendable (Request, Response) throws -> Void) throws -> LatencySummary {
        try ClosedLoop.run(concurrency: concurrency, count: count, name: "bench-client", interval: interval) { _ in
            let client = try HTTPClient(host: "127.0.0.1", port: port, timeout: 60)
            return { i in
                let request = make(i)
                let response = try client.send(method: request.method, path: request.path, headers: request.headers,
                                               body: request.body)
                try check(request, response)
            }
        }
    }
}
