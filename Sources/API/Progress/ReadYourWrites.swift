import EventStore
import Foundation
import HTTP
import ProjectionEngine
import Projections

/// Read-your-writes (docs/api.md): a write returns the position it reached; a read may ask, with
/// `min_position`, to wait (at most five seconds from when it arrived) until the
/// projection it reads has passed it. The wait holds no thread: the request is parked
/// and runs again when `ProjectionProgress` sees the position.
enum ReadYourWrites {
    static let maximumWait = 5.0

    /// Returns when the request names no `min_position` or `projection` has passed it;
    /// otherwise throws a deferral that runs `handler` again once it has. A position
    /// beyond the log's head can never be reached: that is a 400 at once. `authorize`
    /// runs first, with the position: nothing waits, and nothing about the log is told,
    /// before the caller is known to be allowed the read (docs/security.md).
    static func wait(_ request: HTTPRequest, context: ServiceContext, projection: any Projection = BillingProjection(),
                     authorize: (Int64) throws -> Void,
                     then handler: @escaping @Sendable () throws -> HTTPResponse) throws {
        guard let text = request.query("min_position") else { return }
        guard let target = Int64(text), target >= 0, String(target) == text else {
            throw Problem(status: 400, code: "invalid_parameter",
                          detail: "min_position must be a non-negative integer, got \(text.debugDescription)")
        }
        try authorize(target)
        if let reached = context.progress.position(projection.name), reached >= target { return }
        let head = try context.progress.head.flatMap { $0 >= target ? $0 : nil } ?? context.store.log.headPosition()
        guard target <= head else {
            throw Problem(status: 400, code: "min_position_beyond_head",
                          detail: "min_position \(target) is beyond the log's head (\(head)): no write has reached it")
        }
        throw park(until: target, since: request.receivedAt, context: context, projection: projection, then: handler)
    }

    /// `wait` for a billing read of `account` (balance, journal, usage, feed): the wait is
    /// authorized from the key (`Authentication.authorizeBeforeWaiting`), and the read,
    /// `handler`, authenticates again where it runs.
    static func wait(_ request: HTTPRequest, reading account: BillingAccount, context: ServiceContext,
                     then handler: @escaping @Sendable () throws -> HTTPResponse) throws {
        try wait(request, context: context, authorize: {
            try Authentication.authorizeBeforeWaiting(request, account: account, target: $0, context: context)
        }, then: handler)
    }

    /// The request's `min_position`, once `wait` has checked it; nil without one.
    static func minimumPosition(_ request: HTTPRequest) -> Int64? {
        request.query("min_position").flatMap { Int64($0) }
    }

    /// `handler`'s answer once `projection` has applied `target` (a position the service
    /// itself just appended): at once if it has, else the request is parked until it
    /// has; 503 `projection_behind` if that takes more than five seconds from `since`.
    static func answer(after target: Int64, since: Date, context: ServiceContext, projection: any Projection,
                       then handler: @escaping @Sendable () throws -> HTTPResponse) throws -> HTTPResponse {
        if let reached = context.progress.position(projection.name), reached >= target { return try handler() }
        throw park(until: target, since: since, context: context, projection: projection, then: handler)
    }

    /// The deferral that runs `handler` once `projection` has applied `target`, or the
    /// 503 when the five seconds from `since` are spent already.
    private static func park(until target: Int64, since: Date, context: ServiceContext, projection: any Projection,
                             then handler: @escaping @Sendable () throws -> HTTPResponse) -> any Error {
        let remaining = maximumWait - Date().timeIntervalSince(since)
        guard remaining > 0 else { return behind(target, context: context, projection: projection) }
        return HTTPDeferral(
            timeout: .milliseconds(Int64(remaining * 1000)),
            start: { wake in context.progress.wait(for: projection.name, position: target, wake) },
            resume: handler,
            expired: { throw behind(target, context: context, projection: projection) })
    }

    private static func behind(_ target: Int64, context: ServiceContext, projection: any Projection) -> Problem {
        let reached = context.progress.position(projection.name).map(String.init) ?? "unknown"
        return Problem(status: 503, code: "projection_behind",
                       detail: "the \(projection.name) projection has reached position \(reached), not yet \(target); retry shortly",
                       retryAfter: 1)
    }
}
