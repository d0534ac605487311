import HTTP
import LedgerServices

extension ActOutcome {
    /// The problem an HTTP surface answers for an outcome that appended nothing (or may
    /// have): the API's and the console's one reading. Nil for `appended` and `refused`,
    /// which each surface renders in its own shape (a 422 problem, the act's form again).
    var problem: Problem? {
        switch self {
        case .appended, .alreadyRecorded, .refused:
            return nil
        case .conflict(let conflict) where conflict.isIdempotencyConflict:
            return Problem(status: 409, code: "idempotency_conflict", detail: conflict.detail)
        case .conflict:
            return Problem(status: 409, code: "conflict",
                           detail: "the state this request was decided on changed meanwhile; nothing was recorded: retry")
        case .outcomeUnknown:
            return Problem(status: 503, code: "append_outcome_unknown",
                           detail: "the database failed while committing, so whether this request was recorded is unknown; sending the same request again is safe: it is recorded at most once",
                           retryAfter: 1)
        case .unavailable:
            return Problem(status: 503, code: "store_unavailable",
                           detail: "the event log cannot take appends right now; nothing was recorded: retry shortly", retryAfter: 1)
        case .projectionBehind(let behind):
            return Problem(status: 503, code: "projection_behind",
                           detail: "the \(behind.projection) projection has not applied position \(behind.target) yet, which this decision needs; retry in a moment",
                           retryAfter: 1)
        }
    }

    /// What an endpoint throws for an outcome it has no answer of its own for: a refusal
    /// as the problem that says it, the rest as `problem`.
    var failure: Problem {
        if case .refused(let refusal) = self { return Problem(refusal) }
        return problem ?? Problem(status: 500, code: "internal", detail: "an act's outcome was read as a failure")
    }
}
