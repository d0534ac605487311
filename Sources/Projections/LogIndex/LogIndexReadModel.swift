import Postgres

/// The reads of the log's index (`proj_catalogue.streams`): when each stream last moved,
/// which the console's search and lists show as a record's last activity.
public struct LogIndexReadModel: Sendable {
    public let connections: PostgresPool

    public init(connections: PostgresPool) { self.connections = connections }

    /// A stream's latest event.
    public struct Activity: Sendable, Equatable {
        public var stream: String
        public var lastPosition: Int64
        public var lastOccurredAtMicroseconds: Int64
    }

    /// The latest event of each of these streams that has events, by stream (primary key).
    public func activity(of streams: [String]) throws -> [String: Activity] {
        guard !streams.isEmpty else { return [:] }
        return try read { conn in
            try conn.query("""
                SELECT stream, last_position, (extract(epoch FROM last_occurred_at) * 1000000)::bigint
                FROM proj_catalogue.streams WHERE stream = ANY($1::text[])
                """, [PostgresTextArray(streams)])
        }.reduce(into: [:]) { $0[$1.stream] = $1 }
    }

    /// At most `limit` streams of `category` by their latest position, newest first when
    /// `descending`, after the stream whose latest position is `after`. A stream's latest
    /// position is its own (an event is on one stream), so it keys the page alone. No index
    /// orders a category by position (one would be rewritten by every batch that the
    /// table's room for HOT updates spares), so a page sorts the category's rows.
    public func streams(category: String, descending: Bool, after: Int64?, limit: Int) throws -> [Activity] {
        let (comparison, order) = descending ? ("<", "DESC") : (">", "ASC")
        return try read { conn in
            try conn.query("""
                SELECT stream, last_position, (extract(epoch FROM last_occurred_at) * 1000000)::bigint
                FROM proj_catalogue.streams WHERE category = $1 AND ($2::bigint IS NULL OR last_position \(comparison) $2)
                ORDER BY last_position \(order) LIMIT $3
                """, [category, after, Int64(limit)])
        }
    }

    private func read(_ statement: (PostgresConnection) throws -> PostgresResult) throws -> [Activity] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_catalogue.streams') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try statement(conn).rows.map { r in
                Activity(stream: try r.requireString(0), lastPosition: try r.requireInt64(1), lastOccurredAtMicroseconds: try r.requireInt64(2))
            }
        }
    }
}
