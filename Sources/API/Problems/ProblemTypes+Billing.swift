extension ProblemTypes {
    /// The billing surface's codes (secret keys: balance, journal, usage, the message feed,
    /// usage ingestion, the log's checkpoints and proofs), and the credentials' codes the
    /// App Store surface shares.
    static let billing = ProblemTypeGroup(
        name: "Billing: balances, journal, usage, the log", anchor: "billing-balances-journal-usage-the-log",
        summary: "Routes under `/v1/projects/`, `/v1/payers/`, `/v1/usage/` and `/v1/log/`, called with a secret key (`Authorization: Bearer sk_…`); answers are RFC 9457 problems.",
        types: [
            ProblemType("unauthenticated", [401], "No valid credential",
                        meaning: "A secret-key route got no `Authorization` header, one that is not `Bearer sk_…`, or a key that is unknown or revoked (the answer carries `WWW-Authenticate: Bearer`); an App Store route got no session cookie, or one that is invalid or expired. Nothing was recorded.",
                        action: "Send `Authorization: Bearer <secret key>` with a key issued by `ledger admin key issue`, or sign in again for a new session."),
            ProblemType("forbidden", [403], "This credential may not do this",
                        meaning: "The credential is valid but of the wrong kind: usage ingestion needs an internal service key, the log's checkpoints and proofs an auditor key, and recording an App Store purchase a designated administrator of the organization. Nothing was recorded.",
                        action: "Use a credential of the kind `detail` names (`ledger admin key issue --service …`, `--auditor …`)."),
            ProblemType("invalid_parameter", [400], "A query parameter is invalid",
                        meaning: "A query parameter is malformed or out of range: `min_position` (an integer, 0 or more), `limit` (1 to the route's maximum), `month` (`YYYY-MM`), `after` (a message sequence number), or a log proof's `position`, `size`, `from` or `to`. `detail` names it. Nothing was recorded.",
                        action: "Fix the parameter named in `detail`."),
            ProblemType("invalid_cursor", [400], "The journal cursor is not one this service issued",
                        meaning: "The `cursor` is malformed, was altered, or was issued for another account. Nothing was recorded.",
                        action: "Start again without `cursor`, then follow `next_cursor` from each page unchanged."),
            ProblemType("min_position_beyond_head", [400], "No write has reached this position",
                        meaning: "`min_position` is past the log's head, so waiting could never end. Nothing was recorded.",
                        action: "Pass a `position` that a write of yours returned."),
            ProblemType("invalid_usage_batch", [422], "Usage events are invalid",
                        meaning: "A usage batch is empty or longer than 1,000 events, or some of its events are invalid (an id that is not 1-128 printable characters, an unknown project or meter, a quantity out of range, an `occurred_at` in the future or in a month already closed). `errors` lists each, as `events[i]: …`. The batch is refused whole: nothing was recorded.",
                        action: "Fix or drop the events `errors` names, then send the batch again (events recorded before are counted once)."),
            ProblemType("usage_id_conflict", [409], "A usage id was recorded before with other content",
                        meaning: "An event of the batch reuses the id of a usage event recorded before with a different project, meter, quantity or time. The batch is refused whole: nothing was recorded.",
                        action: "Give new measurements new ids; send an id again only with the same content (then it is counted once)."),
        ])
}
