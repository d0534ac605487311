import EventStore
import Postgres

/// A failure of something a request depends on, not of the request: the database or the
/// event log unreachable, overloaded or not ready. Every front end reads a lower layer's
/// error through `classify`, so that what is "retry later" is decided once: the API answers
/// a 503 with `Retry-After`, never a 500, which would say the request broke the server.
public enum DependencyFailure: Sendable {
    /// The database cannot do the work now; `detail` says why, for the answer.
    case databaseUnavailable(String)
    /// An append failed the way an act's append fails (`ActOutcome.failed`).
    case append(ActOutcome)

    /// The dependency's failure `error` is, or nil when it is none (a bug).
    public static func classify(_ error: any Error) -> DependencyFailure? {
        switch error {
        case let error as PostgresError:
            return classify(error)
        case let error as AppendError:
            // A malformed event is no dependency's failure.
            return error.code == .invalidEvent ? nil : .append(ActOutcome.failed(error))
        default:
            return nil
        }
    }

    static func classify(_ error: PostgresError) -> DependencyFailure? {
        switch error.code {
        case .connectionFailed, .connectionLost, .poolTimeout:
            return .databaseUnavailable("the database cannot be reached")
        case .serverError:
            guard let state = error.sqlState else { return nil }
            // 08: connection exceptions; 53: insufficient resources; 57P: the server is
            // shutting down or starting; 40001/40P01: a transaction to retry.
            if state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P") || state == "40001" || state == "40P01" {
                return .databaseUnavailable("the database refused the work for now (SQLSTATE \(state))")
            }
            // 42P01: a projection's table is not there yet (a projection new in this
            // release, before the projector has created it): the read will work soon.
            if state == "42P01" { return .databaseUnavailable("a projection this read needs is not created yet: is `ledger project` running?") }
            return nil
        default:
            return nil
        }
    }
}
