import Foundation
import HTTP
import LedgerServices

/// Read-your-writes (docs/api.md): a write returns the position it reached; a read may ask, with
/// `min_position`, to wait (at most five seconds from when it arrived) until the
/// projections it reads have passed it. The wait holds no thread: the request is parked
/// and runs again when `ProjectionProgress` sees the position.
enum ReadYourWrites {
    static let maximumWait = 5.0

    /// The request's `min_position`; nil without one, 400 when it is not a non-negative integer.
    static func minimumPosition(_ request: HTTPRequest) throws -> Int64? {
        guard let text = request.query("min_position") else { return nil }
        guard let target = Int64(text), target >= 0, String(target) == text else {
            throw Problem(status: 400, code: "invalid_parameter",
                          detail: "min_position must be a non-negative integer, got \(text.debugDescription)")
        }
        return target
    }

    /// The problem for a position no write has reached.
    static func beyondHead(_ target: Int64, head: Int64) -> Problem {
        Problem(status: 400, code: "min_position_beyond_head",
                detail: "min_position \(target) is beyond the log's head (\(head)): no write has reached it")
    }

    /// The deferral that runs `handler` once `projection` has applied `target`, or the
    /// 503 when the five seconds from `since` are spent already.
    static func park(until target: Int64, of projection: String, since: Date, context: ServiceContext,
                     then handler: @escaping @Sendable () throws -> HTTPResponse) -> any Error {
        let remaining = maximumWait - Date().timeIntervalSince(since)
        guard remaining > 0 else { return behind(target, of: projection, context: context) }
        return HTTPDeferral(
            timeout: .milliseconds(Int64(remaining * 1000)),
            start: { wake in context.progress.wait(for: projection, position: target, wake) },
            resume: handler,
            expired: { throw behind(target, of: projection, context: context) })
    }

    private static func behind(_ target: Int64, of projection: String, context: ServiceContext) -> Problem {
        let reached = context.progress.position(projection).map(String.init) ?? "unknown"
        return Problem(status: 503, code: "projection_behind",
                       detail: "the \(projection) projection has reached position \(reached), not yet \(target); retry shortly",
                       retryAfter: 1)
    }
}
