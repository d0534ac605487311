import Postgres

extension PostgresError {
    /// An insert found no partition of `events` for its position: partitions are created
    /// ahead of need, so another process moved the head past what this one had made.
    var isMissingPartition: Bool {
        sqlState == "23514" && message.contains("no partition of relation")
    }
}
