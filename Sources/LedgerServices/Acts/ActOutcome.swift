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
    /// version expected), its key was used before for another request, or a race the act
    /// reads as "decide again" went on past `RacePolicy.attempts` decisions.
    case conflict(Conflict)
    /// The database failed while committing: retry with the same key.
    case outcomeUnknown(String)
    /// The log could not take the append now: retry later.
    case unavailable(String)
    /// The read model the act judges on has not applied the stream it judges yet.
    case projectionBehind(ProjectionBehind)

    /// Why an append found the log other than the decision expected.
    public struct Conflict: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// The stream moved past the version the decision expected: re-read and retry.
            case streamMoved(String)
            /// The idempotency key was used before for another request: a client's error.
            case keyReused
            /// The act read the race as "decide again": the shells that can decide again
            /// at once, up to `RacePolicy.attempts` times; past them the race is unsettled,
            /// which is the service's contention, not the client's mistake (retry later).
            case decideAgain
        }
        public var kind: Kind
        public var detail: String

        public init(_ kind: Kind, detail: String) {
            self.kind = kind
            self.detail = detail
        }
    }

    /// The stable code of an outcome unknown, on every surface (the store's own).
    public static let outcomeUnknownCode = AppendError.Code.outcomeUnknown.rawValue

    /// The one reading of an append's failure: every front end takes it from here.
    public static func failed(_ error: AppendError) -> ActOutcome {
        switch error.code {
        case .wrongExpectedVersion:
            return .conflict(Conflict(.streamMoved(error.stream ?? ""), detail: error.message))
        case .idempotencyConflict:
            return .conflict(Conflict(.keyReused, detail: error.message))
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

/// How often a race an act reads as "decide again" is decided again, the same for every
/// shell (the API's and the console's `AppendDeferral.perform`, `ActRunner.run`).
public enum RacePolicy {
    /// Decisions in all, the first included.
    public static let attempts = 3

    /// Whether `outcome`, after decision number `attempt`, is decided again at once.
    public static func decidesAgain(_ outcome: ActOutcome, after attempt: Int) -> Bool {
        guard case .conflict(let conflict) = outcome, conflict.kind == .decideAgain else { return false }
        return attempt < attempts
    }
}

/// A read model behind the stream an act judges: it must apply `target` first.
public struct ProjectionBehind: Error, Sendable, Hashable {
    /// The projection's name, e.g. `billing`.
    public var projection: String
    /// The position it must reach: the last event of the judged stream.
    public var target: Int64
    /// Where it is; nil when it does not exist yet.
    public var reached: Int64?
}
