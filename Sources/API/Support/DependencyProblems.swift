import HTTP
import LedgerServices

/// What a request answers when something it depends on fails (`DependencyFailure`): a
/// 503 with `Retry-After` (the request may succeed on retry), never a 500, which would say
/// the request itself broke the server.
enum DependencyProblems {
    /// The problem for `error`, or nil when it is not a dependency's failure (a bug: 500).
    static func problem(for error: any Error) -> Problem? {
        switch DependencyFailure.classify(error) {
        case .databaseUnavailable(let what)?:
            return Problem(status: 503, code: "database_unavailable", detail: "\(what); retry shortly", retryAfter: 1)
        case .append(let outcome)?:
            return outcome.problem
        case nil:
            return nil
        }
    }
}
