import EventStore
import HTTP
import LedgerServices
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
                throw Problem.appendOutcomeUnknown("the event log did not answer within \(timeout.components.seconds) seconds")
            })
    }

    /// The one write skeleton of the HTTP surfaces (the API's endpoints, the console's
    /// acts): decides `act`, appends without holding a thread, and hands the outcome (with
    /// the append sent, nil when the act stopped before) to `render`. A race the act reads
    /// as "decide again" is decided again, as `RacePolicy` says.
    static func perform(_ act: any LedgerAct, runner: ActRunner, metadata: EventMetadata, key: String?, attempt: Int = 1,
                        observe: @escaping @Sendable (Result<AppendResult, AppendError>) -> Void = { _ in },
                        render: @escaping @Sendable (ActOutcome, AppendRequest?) throws -> HTTPResponse) throws -> HTTPResponse {
        switch try runner.prepare(act) {
        case .stopped(let outcome):
            return try render(outcome, nil)
        case .decided(let decision):
            let request = runner.request(decision, metadata: metadata, key: key)
            throw append(request, to: runner.store, observe: observe) { result in
                let outcome = runner.outcome(result, of: act, decision: decision)
                if RacePolicy.decidesAgain(outcome, after: attempt) {
                    return try perform(act, runner: runner, metadata: metadata, key: key, attempt: attempt + 1, observe: observe, render: render)
                }
                return try render(outcome, request)
            }
        }
    }
}
