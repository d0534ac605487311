import EventStore
import HTTP
import LedgerServices

extension ServiceContext {
    /// The shared acts, on the service's pools and clock.
    var acts: ActRunner { ActRunner(store: store, pool: pool, now: now) }

    /// The API's one write skeleton: decides `act`, appends without holding a thread, and
    /// hands the outcome (with the append sent, nil when the act stopped before) to
    /// `render`. A race the act reads as "decide again" is decided again, up to three times.
    func perform(_ act: any LedgerAct, metadata: EventMetadata, key: String? = nil, attempt: Int = 1,
                 render: @escaping @Sendable (ActOutcome, AppendRequest?) throws -> HTTPResponse) throws -> HTTPResponse {
        let runner = acts
        switch try runner.prepare(act) {
        case .stopped(let outcome):
            return try render(outcome, nil)
        case .decided(let decision):
            let request = runner.request(decision, metadata: metadata, key: key)
            throw append(request) { [self] result in
                let outcome = runner.outcome(result, of: act, decision: decision)
                if case .conflict(let conflict) = outcome, conflict.decideAgain, attempt < 3 {
                    return try perform(act, metadata: metadata, key: key, attempt: attempt + 1, render: render)
                }
                return try render(outcome, request)
            }
        }
    }
}
