import Postgres

extension PostgresError {
    /// An insert found no partition of `events` for its position: partitions are created
    /// ahead of need, so another process moved the head past what this one had made.
    /// The message is PostgreSQL's English one; under another `lc_messages` this is false,
    /// and the batch is split and retried instead, each retry making the partition first
    /// (a failed transaction forgets what the writer knew of the partitions).
    var isMissingPartition: Bool {
        sqlState == "23514" && message.contains("no partition of relation")
    }
}
