/// How a query ended, the same for every front end: the API maps it to a response or a
/// problem, the console to a page, `ledger admin` to output or an exit code.
public enum QueryOutcome<Answer: Sendable>: Sendable {
    /// The answer, read at or past the position asked.
    case answered(Answer)
    /// No such subject for this reader: it does not exist, or the reader may not read it
    /// (the two are answered alike, so that existence is not revealed).
    case notFound(QuerySubject)
    /// The reader may not read the subject, and the subject says so openly
    /// (`QuerySubject.refusalIsVisible`: the log's proofs to a key that is not an auditor's).
    case forbidden(QuerySubject)
    /// `projection` has not applied `position` yet: the front end parks the request
    /// (holding no thread) until it has, then runs the query again.
    case waiting(projection: String, position: Int64)
    /// The position asked is beyond the log's head: no write has reached it, and no wait
    /// would end.
    case beyondHead(position: Int64, head: Int64)
}
