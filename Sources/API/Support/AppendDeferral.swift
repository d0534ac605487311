import HTTP
import LedgerDomain
import LedgerServices
import Synchronization

/// Appends from a request handler without holding a thread: the API's write endpoints
/// and the console's acts both append through it.
enum AppendDeferral {
    /// How long a request waits for the appender before it answers that the outcome is
    /// unknown (the append may still commit; its idempotency key makes the retry safe).
    static let timeout: Duration = .seconds(10)

    /// The one write skeleton of the HTTP surfaces (the API's endpoints, the console's
    /// acts): decides `act`, appends without holding a thread (the deferral, thrown by the
    /// handler, parks the request until the log answers), and hands the outcome (with the
    /// decision appended, nil when the act stopped before) to `render`. A race the act
    /// reads as "decide again" is decided again, as `RacePolicy` says.
    static func perform(_ act: any LedgerAct, runner: ActRunner, metadata: EventMetadata, key: String?, attempt: Int = 1,
                        render: @escaping @Sendable (ActOutcome, Decision?) throws -> HTTPResponse) throws -> HTTPResponse {
        switch try runner.prepare(act) {
        case .stopped(let outcome):
            return try render(outcome, nil)
        case .decided(let decision):
            let outcome = Mutex<ActOutcome?>(nil)
            throw HTTPDeferral(
                timeout: timeout,
                start: { wake in
                    runner.submit(decision, of: act, metadata: metadata, key: key) { result in
                        outcome.withLock { $0 = result }
                        wake()
                    }
                    return {}
                },
                resume: {
                    let outcome = outcome.withLock { $0! }
                    if RacePolicy.decidesAgain(outcome, after: attempt) {
                        return try perform(act, runner: runner, metadata: metadata, key: key, attempt: attempt + 1, render: render)
                    }
                    return try render(outcome, decision)
                },
                expired: {
                    throw Problem.appendOutcomeUnknown("the event log did not answer within \(timeout.components.seconds) seconds")
                })
        }
    }
}
