import EventStore
import LedgerDomain
import Postgres

/// Runs acts for every front end: decide on `reads`, append with the front end's
/// metadata and key, and read the result into one `ActOutcome`. The CLI runs it on its
/// own thread (`run`); an HTTP handler calls `prepare`, then `submit`, which appends
/// without holding a thread and hands over the outcome.
public struct ActRunner: Sendable {
    public let reads: ActReads
    public let store: EventStore
    /// Sees the result of every append this runner sends (the API counts them).
    private let observe: @Sendable (Result<AppendResult, AppendError>) -> Void

    public init(store: EventStore, connections: PostgresPool, now: @escaping LedgerClock,
                observe: @escaping @Sendable (Result<AppendResult, AppendError>) -> Void = { _ in }) {
        self.store = store
        self.reads = ActReads(connections: connections, now: now)
        self.observe = observe
    }

    /// Decided, or stopped before anything was appended.
    public enum Prepared: Sendable {
        case decided(Decision)
        case stopped(ActOutcome)
    }

    /// The act's decision on the state now; a refusal, a projection behind, or nothing
    /// left to record stops it.
    public func prepare(_ act: any LedgerAct) throws -> Prepared {
        do {
            let decision = try act.decide(reads)
            guard !decision.events.isEmpty else { return .stopped(.alreadyRecorded(AlreadyRecorded("nothing left to record"))) }
            return .decided(decision)
        } catch let refusal as Refusal {
            return .stopped(.refused(refusal))
        } catch let behind as ProjectionBehind {
            return .stopped(.projectionBehind(behind))
        } catch let recorded as AlreadyRecorded {
            return .stopped(.alreadyRecorded(recorded))
        }
    }

    /// The append of `decision`: under the decision's own key when it has one (a month
    /// close names its month), none when its events carry keys of their own (a purchase
    /// id), else the front end's `key`, so that a retry of the same act records it once.
    public func request(_ decision: Decision, metadata: EventMetadata, key: String?) -> AppendRequest {
        var request = AppendRequest(decision, metadata: metadata)
        request.idempotencyKey = decision.idempotencyKey
            ?? (request.events.contains { $0.idempotencyKey != nil } ? nil : key)
        return request
    }

    /// What the append's result means for `act`: a race lost on a stream the decision
    /// expected, or on one of its keys, is judged again by the act on the state now.
    public func outcome(_ result: Result<AppendResult, AppendError>, of act: any LedgerAct, decision: Decision) -> ActOutcome {
        switch result {
        case .success(let appended):
            return .appended(appended)
        case .failure(let error):
            if error.code == .wrongExpectedVersion, let stream = error.stream, decision.expectedVersions[stream] != nil,
               let refusal = try? act.lostRace(on: stream, actualVersion: error.actualVersion, reads) {
                return .refused(refusal)
            }
            if error.code == .idempotencyConflict, let verdict = try? act.keyTaken(error.key, by: decision, reads) {
                switch verdict {
                case .refused(let refusal): return .refused(refusal)
                case .alreadyRecorded(let recorded): return .alreadyRecorded(recorded)
                case .decideAgain: return .conflict(.init(.decideAgain, detail: error.message))
                }
            }
            return .failed(error)
        }
    }

    /// Decides and appends on this thread, for a process of its own (`ledger admin`),
    /// never an HTTP handler; with the outcome, the append it sent (nil when the act
    /// stopped before). A race the act reads as "decide again" is decided again here, as
    /// `RacePolicy` says; a projection behind is returned as such: the caller may wait
    /// for it and run the act again.
    public func run(_ act: any LedgerAct, metadata: EventMetadata, key: String?) throws -> (ActOutcome, AppendRequest?) {
        var attempt = 1
        while true {
            switch try prepare(act) {
            case .stopped(let outcome):
                return (outcome, nil)
            case .decided(let decision):
                let append = request(decision, metadata: metadata, key: key)
                let result = Result { () throws(AppendError) -> AppendResult in try store.append(append) }
                observe(result)
                let outcome = outcome(result, of: act, decision: decision)
                if RacePolicy.decidesAgain(outcome, after: attempt) {
                    attempt += 1
                    continue
                }
                return (outcome, append)
            }
        }
    }

    /// Appends `decision`, decided for `act`, without holding the caller's thread:
    /// `completion` gets its outcome on the appender's answering thread, once the log has answered.
    public func submit(_ decision: Decision, of act: any LedgerAct, metadata: EventMetadata, key: String?,
                       completion: @escaping @Sendable (ActOutcome) -> Void) {
        store.submit(request(decision, metadata: metadata, key: key)) { [self] result in
            observe(result)
            completion(outcome(result, of: act, decision: decision))
        }
    }

    /// The first position appended under `key`, nil when nothing was: a front end whose
    /// form carries a key shows what a first send recorded instead of deciding again.
    public func firstPosition(appendedUnder key: String) throws -> Int64? {
        try store.log.events(appendedUnder: key).first?.position
    }

    /// The log's head now: what an act that found its facts recorded already waits for,
    /// so that its answer holds every fact the log held when it was asked.
    public func logHead() throws -> Int64 {
        try store.log.headPosition()
    }
}
