extension ProblemTypes {
    /// What any route that reads or writes may answer when a dependency is down, the
    /// server is loaded, or concurrent requests race (docs/operations.md, "When a
    /// dependency is down").
    static let dependencies = ProblemTypeGroup(
        name: "Any route: dependencies, load and races", anchor: "any-route-dependencies-load-and-races",
        summary: "A dependency that is down, a server that is full or stopping, or a wait that ran out is a 503 with `Retry-After`, never a 500 (on `/v1/iap/*` in the catalog's `{\"error\", \"code\"}` shape). Each page says whether anything may have been recorded; of the 503s, only `append_outcome_unknown` leaves it open.",
        types: [
            ProblemType("database_unavailable", [503], "The database did not answer",
                        meaning: "PostgreSQL did not answer (connection refused or reset, the server restarting), or a projection the read needs does not exist yet (a new release before `ledger project` made it). Nothing was done.",
                        action: "Retry after `Retry-After` seconds."),
            ProblemType("store_unavailable", [503], "The event log cannot take appends now",
                        meaning: "The appender could not reach the log before anything was sent. Nothing was appended.",
                        action: "Retry after `Retry-After` seconds."),
            ProblemType("append_outcome_unknown", [503], "Whether the write was recorded is unknown",
                        meaning: "The connection was lost while the COMMIT was in flight, and the appender could not find out within 10 s whether it committed. **The request may be recorded.** `ledger admin` exits 1 with this code and prints the idempotency key to run it again with.",
                        action: "Send the same request again after `Retry-After` seconds: the same usage ids, signed payload, Stripe event or `--idempotency-key` record it at most once."),
            ProblemType("contention", [503], "Concurrent requests kept changing the state",
                        meaning: "Concurrent requests kept changing the state this one is decided on; it was decided again after each race, three times in all, and still lost. Nothing was appended.",
                        action: "Retry shortly (after `Retry-After` seconds)."),
            ProblemType("conflict", [409], "The state changed while the request was decided",
                        meaning: "The state this request was decided on changed before its append (another request wrote to the same stream first). Nothing was recorded. `ledger admin` refuses the same way when the log changed between its checks and its append.",
                        action: "Read the state again if your request depends on it, then retry."),
            ProblemType("idempotency_conflict", [409], "The key was used before for another request",
                        meaning: "The request's idempotency key is recorded already, for a request with different content. Nothing was recorded; the first request stands.",
                        action: "Send a new request under a new key; send the same key only with the same request."),
            ProblemType("projection_behind", [503], "The projections have not caught up yet",
                        meaning: "A read with `min_position` waited 5 seconds from its arrival and a projection it reads had still not applied that position; or a write needs a projection to have applied an earlier event; or a log proof asks for more than the Merkle tree holds yet. The write you waited for is in the log. `ledger admin` exits 1 with this code when the billing projection does not reach the head in time.",
                        action: "Retry the request after `Retry-After` seconds; if it persists, the projector is stopped or far behind (an operator's `/readyz` says which)."),
            ProblemType("overloaded", [503], "The server's queue is full",
                        meaning: "The server has as many requests waiting for a thread as it queues. This one was not run; nothing was recorded.",
                        action: "Retry after `Retry-After` seconds."),
            ProblemType("shutting_down", [503], "The server is stopping",
                        meaning: "The process is stopping (SIGTERM) while the request waited. It was not run; nothing was recorded.",
                        action: "Retry, on another instance when there is one."),
            ProblemType("too_many_connections", [503], "Too many connections",
                        meaning: "The server has `LEDGER_MAX_CONNECTIONS` connections open, or this address its share (`LEDGER_MAX_CONNECTIONS_PER_ADDRESS`). The connection is closed; nothing was read or recorded.",
                        action: "Retry after `Retry-After` seconds, with fewer connections open at once (reuse them with keep-alive)."),
            ProblemType("internal", [500], "An outcome had no answer",
                        meaning: "An act ended with an outcome its route has no answer for (a bug in the ledger). The request may have been recorded.",
                        action: "Retry once with the same request (keyed, so recorded at most once); if it persists, report it with the answer's `X-Request-Id`."),
        ])
}
