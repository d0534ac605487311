import EventStore
import HTTP
import Synchronization

extension ServiceContext {
    /// How long a request waits for the appender before it answers that the outcome is
    /// unknown (the append may still commit; its idempotency key makes the retry safe).
    static let appendTimeout: Duration = .seconds(10)

    /// Appends without holding a thread: the returned deferral, thrown by the handler,
    /// parks the request until the appender answers, then runs `next` with the result.
    func append(_ request: AppendRequest,
                then next: @escaping @Sendable (Result<AppendResult, AppendError>) throws -> HTTPResponse) -> HTTPDeferral {
        let outcome = Mutex<Result<AppendResult, AppendError>?>(nil)
        return HTTPDeferral(
            timeout: Self.appendTimeout,
            start: { [self] wake in
                store.submit(request) { [self] result in
                    count(result)
                    outcome.withLock { $0 = result }
                    wake()
                }
                return {}
            },
            resume: { try next(outcome.withLock { $0! }) },
            expired: {
                throw Problem(status: 503, code: "append_outcome_unknown",
                              detail: "the event log did not answer within \(Self.appendTimeout.components.seconds) seconds, so whether this request was recorded is unknown; sending the same request again is safe: it is recorded at most once",
                              retryAfter: 1)
            })
    }

    /// Appends and waits on this thread, counting the outcome as a request's append is
    /// counted: for work outside a request handler (tools, tests), never in one.
    public func appendAndWait(_ request: AppendRequest) throws(AppendError) -> AppendResult {
        let result = Result { () throws(AppendError) -> AppendResult in try store.append(request) }
        count(result)
        return try result.get()
    }

    private func count(_ result: Result<AppendResult, AppendError>) {
        switch result {
        case .success(let r): appendCounter.increment(labels: ["result": r.replayed ? "replayed" : "appended"])
        case .failure(let e): appendCounter.increment(labels: ["result": e.code.rawValue])
        }
    }
}
