import EventStore
import LedgerDomain
import Postgres

/// Runs acts for every front end: decide on `reads`, append with the front end's
/// metadata and key, and read the result into one `ActOutcome`. The CLI runs it on its
/// own thread (`run`); an HTTP handler calls `prepare`, appends without holding a thread
/// and calls `outcome` with the result.
public struct ActRunner: Sendable {
    public let reads: ActReads
    public let store: EventStore

    public init(store: EventStore, pool: PostgresPool, now: @escaping @Sendable () -> Timestamp) {
        self.store = store
        self.reads = ActReads(pool: pool, now: now)
    }

    /// Decided, or stopped before anything was appended.
    public enum Prepared: Sendable {
        case decided(Decision)
        case stopped(ActOutcome)
    }

    /// The act's decision on the state now; a refusal or a projection behind stops it.
    public func prepare(_ act: any LedgerAct) throws -> Prepared {
        do {
            return .decided(try act.decide(reads))
        } catch let refusal as Refusal {
            return .stopped(.refused(refusal))
        } catch let behind as ProjectionBehind {
            return .stopped(.projectionBehind(behind))
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

    /// What the append's result means for `act`: a lost race on a stream the decision
    /// expected is judged again on the stream as it is now.
    public func outcome(_ result: Result<AppendResult, AppendError>, of act: any LedgerAct, decision: Decision) -> ActOutcome {
        switch result {
        case .success(let appended):
            return .appended(appended)
        case .failure(let error):
            if error.code == .wrongExpectedVersion, let stream = error.stream, decision.expectedVersions[stream] != nil,
               let refusal = try? act.lostRace(on: stream, actualVersion: error.actualVersion, reads) {
                return .refused(refusal)
            }
            return .failed(error)
        }
    }

    /// Decides and appends on this thread, for a process of its own (`ledger admin`),
    /// never an HTTP handler; with the outcome, the append it sent (nil when the act
    /// stopped before). A projection behind is returned as such: the caller may wait for
    /// it and run the act again.
    public func run(_ act: any LedgerAct, metadata: EventMetadata, key: String?) throws -> (ActOutcome, AppendRequest?) {
        switch try prepare(act) {
        case .stopped(let outcome):
            return (outcome, nil)
        case .decided(let decision):
            let append = request(decision, metadata: metadata, key: key)
            let result = Result { () throws(AppendError) -> AppendResult in try store.append(append) }
            return (outcome(result, of: act, decision: decision), append)
        }
    }
}
