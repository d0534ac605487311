import EventStore
import HTTP
import LedgerServices
import Postgres

/// What a request answers when something it depends on fails: the database or the
/// event log unreachable is a 503 with `Retry-After` (the request may succeed on retry),
/// never a 500, which would say the request itself broke the server.
enum DependencyProblems {
    /// The problem for `error`, or nil when it is not a dependency's failure (a bug: 500).
    static func problem(for error: any Error) -> Problem? {
        switch error {
        case let error as PostgresError:
            return problem(for: error)
        case let error as AppendError:
            return problem(for: error)
        default:
            return nil
        }
    }

    static func problem(for error: PostgresError) -> Problem? {
        switch error.code {
        case .connectionFailed, .connectionLost, .poolTimeout:
            return unavailable("the database cannot be reached")
        case .serverError:
            guard let state = error.sqlState else { return nil }
            // 08: connection exceptions; 53: insufficient resources; 57P: the server is
            // shutting down or starting; 40001/40P01: a transaction to retry.
            if state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P") || state == "40001" || state == "40P01" {
                return unavailable("the database refused the work for now (SQLSTATE \(state))")
            }
            // 42P01: a projection's table is not there yet (a projection new in this
            // release, before the projector has created it): the read will work soon.
            if state == "42P01" { return unavailable("a projection this read needs is not created yet: is `ledger project` running?") }
            return nil
        default:
            return nil
        }
    }

    /// An append's failure read as every act reads it (ActOutcome.failed); a malformed
    /// event is no dependency's failure.
    static func problem(for error: AppendError) -> Problem? {
        error.code == .invalidEvent ? nil : ActOutcome.failed(error).problem
    }

    private static func unavailable(_ what: String) -> Problem {
        Problem(status: 503, code: "database_unavailable", detail: "\(what); retry shortly", retryAfter: 1)
    }
}
