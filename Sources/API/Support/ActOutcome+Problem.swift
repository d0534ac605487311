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
        case .conflict(let conflict):
            switch conflict.kind {
            case .keyReused:
                return Problem(status: 409, code: "idempotency_conflict", detail: conflict.detail)
            case .streamMoved:
                return Problem(status: 409, code: "conflict",
                               detail: "the state this request was decided on changed meanwhile; nothing was recorded: retry")
            case .decideAgain:
                return Problem(status: 503, code: "contention",
                               detail: "concurrent requests kept changing the state this request is decided on; nothing was recorded: retry shortly",
                               retryAfter: 1)
            }
        case .outcomeUnknown:
            return .appendOutcomeUnknown("the database failed while committing")
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

extension Problem {
    /// The one answer of the HTTP surfaces when an append may or may not have committed:
    /// `cause` says why it is unknown; the same request again is recorded at most once.
    static func appendOutcomeUnknown(_ cause: String) -> Problem {
        Problem(status: 503, code: ActOutcome.outcomeUnknownCode,
                detail: "\(cause), so whether this request was recorded is unknown; sending the same request again is safe: it is recorded at most once",
                retryAfter: 1)
    }
}
