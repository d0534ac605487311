import LedgerServices

extension AdminSession {
    /// `query`'s answer once every projection it reads has applied the log as it is now:
    /// what a read-only command prints includes every event recorded before it started.
    /// nil when the query's subject does not exist.
    func answerCaughtUp<Q: LedgerQuery>(_ query: Q) throws -> Q.Answer? {
        for projection in query.projections { try catchUp(projection) }
        return try answer(query)
    }
}
