/// Why `ledger-bench read` or `ledger-bench ingest` stopped. Codes are stable; `message`
/// is for people.
struct BenchmarkFailure: Error, Sendable, CustomStringConvertible {
    struct Code: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String
        var description: String { rawValue }
        /// A request the benchmark sent was not answered as expected (status or body).
        static let unexpectedResponse = Code(rawValue: "bench_unexpected_response")
        /// A projection stopped on a poison event while the benchmark waited for it.
        static let projectionFailed = Code(rawValue: "bench_projection_failed")
        /// Building the benchmark's log failed (an append was refused).
        static let logBuildFailed = Code(rawValue: "bench_log_build_failed")
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(code): \(message)" }
}
