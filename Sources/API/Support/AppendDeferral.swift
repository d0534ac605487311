import EventStore
import HTTP
import Synchronization

/// Appends from a request handler without holding a thread: the API's write endpoints
/// and the console's acts both append through it.
enum AppendDeferral {
    /// How long a request waits for the appender before it answers that the outcome is
    /// unknown (the append may still commit; its idempotency key makes the retry safe).
    static let timeout: Duration = .seconds(10)

    /// The deferral, thrown by the handler, parks the request until the appender answers,
    /// then runs `next` with the result (`observe` sees it first, for metrics).
    static func append(_ request: AppendRequest, to store: EventStore,
                       observe: @escaping @Sendable (Result<AppendResult, AppendError>) -> Void = { _ in },
                       then next: @escaping @Sendable (Result<AppendResult, AppendError>) throws -> HTTPResponse) -> HTTPDeferral {
        let outcome = Mutex<Result<AppendResult, AppendError>?>(nil)
        return HTTPDeferral(
            timeout: timeout,
            start: { wake in
                store.submit(request) { result in
                    observe(result)
                    outcome.withLock { $0 = result }
                    wake()
                }
                return {}
            },
            resume: { try next(outcome.withLock { $0! }) },
            expired: {
                throw Problem(status: 503, code: "append_outcome_unknown",
                              detail: "the event log did not answer within \(timeout.components.seconds) seconds, so whether this request was recorded is unknown; sending the same request again is safe: it is recorded at most once",
                              retryAfter: 1)
            })
    }
}
