import EventStore
import LedgerDomain

/// How an act ended, the same for every front end: the API maps it to a problem, the
/// console to a page, `ledger admin` to a receipt or an exit code, each in one place.
/// Only `appended` wrote anything; every other case appended nothing, except
/// `outcomeUnknown`, which the same idempotency key makes safe to retry.
public enum ActOutcome: Sendable {
    /// In the log (`replayed`: the key had recorded it before, nothing new was written).
    case appended(AppendResult)
    /// In the log already, by another append: done, and nothing new was written.
    case alreadyRecorded(AlreadyRecorded)
    /// The rules or the state refuse it, with the decider's stable code.
    case refused(Refusal)
    /// The state it was decided on changed before the append (a stream moved past the
    /// version expected), or its key was used before for another request: re-read and retry.
    /// A conflict whose `decideAgain` is set is decided again at once by the shells that
    /// can (the API, `ledger admin`), a few times, before it is answered.
    case conflict(Conflict)
    /// The database failed while committing: retry with the same key.
    case outcomeUnknown(String)
    /// The log could not take the append now: retry later.
    case unavailable(String)
    /// The read model the act judges on has not applied the stream it judges yet.
    case projectionBehind(ProjectionBehind)

    /// Why an append found the log other than the decision expected.
    public struct Conflict: Sendable, Hashable {
        /// The stream that moved; nil for an idempotency key used before.
        public var stream: String?
        public var detail: String
        /// The act's own reading of the race: the state changed, decide again now.
        public var decideAgain: Bool = false
        public var isIdempotencyConflict: Bool { stream == nil }
    }

    /// The one reading of an append's failure: every front end takes it from here.
    public static func failed(_ error: AppendError) -> ActOutcome {
        switch error.code {
        case .wrongExpectedVersion:
            return .conflict(Conflict(stream: error.stream ?? "", detail: error.message))
        case .idempotencyConflict:
            return .conflict(Conflict(stream: nil, detail: error.message))
        case .outcomeUnknown:
            return .outcomeUnknown(error.message)
        case .invalidEvent:
            // A decider accepted what the store refuses: the event is malformed, a bug.
            return .refused(Refusal(.outOfRange, "the event store refused the event: \(error.message)"))
        default:
            return .unavailable(error.message)
        }
    }
}

/// A read model behind the stream an act judges: it must apply `target` first.
public struct ProjectionBehind: Error, Sendable, Hashable {
    /// The projection's name, e.g. `billing`.
    public var projection: String
    /// The position it must reach: the last event of the judged stream.
    public var target: Int64
    /// Where it is; nil when it does not exist yet.
    public var checkpoint: Int64?
}
