import LedgerDomain
import Postgres

/// Every read of the webhooks projection's tables (`proj_webhooks`).
public struct WebhooksReadModel: Sendable {
    public let connections: PostgresPool

    public init(connections: PostgresPool) { self.connections = connections }

    /// A subscription as the operator and the dispatcher see it.
    public struct Subscription: Sendable, Encodable, Equatable {
        public var id: String
        public var projectID: String
        public var url: String
        public var subjects: [String]
        public var types: [String]
        public var balanceLowThreshold: String?
        public var active: Bool
        public var generation: Int64
        /// Unix microseconds until which the previous generation's secret also signs.
        public var previousValidUntil: Int64?
        public var position: Int64

        enum CodingKeys: String, CodingKey {
            case id = "webhook_id", projectID = "project_id", url, subjects, types, active, generation, position
            case balanceLowThreshold = "balance_low_threshold", previousValidUntil = "previous_valid_until_us"
        }
    }

    /// Every subscription by id, or only `id`, or only those billed to `project`.
    public func subscriptions(id: String? = nil, project: String? = nil) throws -> [Subscription] {
        try connections.read { conn in
            try conn.query("""
                SELECT webhook_id, project_id, url, array_to_string(subjects, ','), array_to_string(types, ','),
                       balance_low_threshold::text, active, generation, previous_valid_until_us, position
                FROM proj_webhooks.subscriptions
                WHERE ($1::text IS NULL OR webhook_id = $1) AND ($2::text IS NULL OR project_id = $2)
                ORDER BY webhook_id
                """, [id, project]).rows.map { r in
                func list(_ column: Int) -> [String] { (r.string(column) ?? "").split(separator: ",").map(String.init) }
                return Subscription(id: try r.requireString(0), projectID: try r.requireString(1), url: try r.requireString(2),
                                    subjects: list(3), types: list(4), balanceLowThreshold: r.string(5), active: r.bool(6) ?? false,
                                    generation: try r.requireInt64(7), previousValidUntil: r.int64(8), position: try r.requireInt64(9))
            }
        }
    }
}

extension WebhooksReadModel {
    /// The next message to send to a subscription: the lowest-numbered one not yet
    /// delivered (nor dead), once its attempt is due.
    public struct Due: Sendable, Equatable {
        public var webhookID: String
        public var projectID: String
        public var url: String
        public var generation: Int64
        public var previousValidUntil: Int64?
        public var sequence: Int64
        public var messageID: String
        public var position: Int64
        public var type: String
        public var subject: String
        public var attempts: Int64
    }

    /// At most `limit` subscriptions' next messages due at `now` (Unix microseconds),
    /// oldest due first, and the position the projection has applied.
    public func due(now: Int64, limit: Int) throws -> (deliveries: [Due], position: Int64) {
        try connections.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                let position = try tx.query("SELECT position FROM proj_webhooks._checkpoint")[0].requireInt64(0)
                let due = try tx.query("""
                    SELECT s.webhook_id, s.project_id, s.url, s.generation, s.previous_valid_until_us, d.sequence, d.message_id,
                           d.position, m.type, m.subject, d.attempts
                    FROM proj_webhooks.subscriptions s
                    JOIN LATERAL (SELECT * FROM proj_webhooks.deliveries x WHERE x.webhook_id = s.webhook_id AND x.status = 'pending'
                                  ORDER BY x.sequence LIMIT 1) d ON true
                    JOIN proj_webhooks.messages m ON m.message_id = d.message_id
                    WHERE s.active AND d.next_attempt_us <= $1
                    ORDER BY d.next_attempt_us, s.webhook_id LIMIT $2
                    """, [now, limit]).rows.map { r in
                    Due(webhookID: try r.requireString(0), projectID: try r.requireString(1), url: try r.requireString(2),
                        generation: try r.requireInt64(3), previousValidUntil: r.int64(4), sequence: try r.requireInt64(5),
                        messageID: try r.requireString(6), position: try r.requireInt64(7), type: try r.requireString(8),
                        subject: try r.requireString(9), attempts: try r.requireInt64(10))
                }
                return (due, position)
            }
        }
    }

    /// One attempt, as `ledger admin webhook deliveries` lists it.
    public struct Attempt: Sendable, Encodable, Equatable {
        public var sequence: Int64
        public var attempt: Int64
        public var outcome: String
        public var status: Int64?
        public var error: String?
        public var latencyMilliseconds: Int64
        /// The SHA-256 of the answer's body (lowercase hex) and its length, when there was
        /// an answer recorded with them (not an attempt recorded before they were).
        public var answerSHA256: String?
        public var answerBytes: Int64?
        public var attemptedAt: String
        public var position: Int64

        enum CodingKeys: String, CodingKey {
            case sequence, attempt, outcome, status, error, position
            case latencyMilliseconds = "latency_ms", answerSHA256 = "answer_sha256", answerBytes = "answer_bytes"
            case attemptedAt = "attempted_at"
        }
    }

    /// A subscription's last `limit` attempts, newest first.
    public func attempts(webhook: String, limit: Int) throws -> [Attempt] {
        try connections.read { conn in
            try conn.query("""
                SELECT sequence, attempt, outcome, status, error, latency_ms, answer_sha256, answer_bytes,
                       to_char(attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), position
                FROM proj_webhooks.attempts WHERE webhook_id = $1 ORDER BY position DESC LIMIT $2
                """, [webhook, limit]).rows.map { r in
                Attempt(sequence: try r.requireInt64(0), attempt: try r.requireInt64(1), outcome: try r.requireString(2),
                        status: r.int64(3), error: r.string(4), latencyMilliseconds: try r.requireInt64(5),
                        answerSHA256: r.string(6), answerBytes: r.int64(7), attemptedAt: try r.requireString(8),
                        position: try r.requireInt64(9))
            }
        }
    }

    /// A subscription's last message number (0 before its first), nil when there is no such
    /// subscription.
    public func lastSequence(webhook: String) throws -> Int64? {
        try connections.read { conn in
            try conn.query("""
                SELECT (SELECT coalesce(max(sequence), 0) FROM proj_webhooks.deliveries d WHERE d.webhook_id = s.webhook_id)
                FROM proj_webhooks.subscriptions s WHERE s.webhook_id = $1
                """, [webhook]).rows.first?.int64(0)
        }
    }

    /// The delivery state of a subscription's message (`pending`, `delivered`, `dead`), nil
    /// when it has no such message.
    public func deliveryStatus(webhook: String, sequence: Int64) throws -> String? {
        try connections.read { conn in
            try conn.query("SELECT status FROM proj_webhooks.deliveries WHERE webhook_id = $1 AND sequence = $2", [webhook, sequence])
                .rows.first?.string(0)
        }
    }
}

extension WebhooksReadModel {
    /// One message of a subject's feed.
    public struct FeedItem: Sendable, Equatable {
        public var messageID: String
        public var type: String
        public var subject: String
        public var sequence: Int64
        public var position: Int64
    }

    /// A subject's messages numbered after `after`, at most `limit`, of events up to
    /// `through`, whether more follow, and the position the projection has applied; in
    /// one snapshot.
    public func feed(subject: String, after: Int64, limit: Int, through: Int64) throws -> (items: [FeedItem], hasMore: Bool, position: Int64) {
        try connections.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                let position = try tx.query("SELECT position FROM proj_webhooks._checkpoint")[0].requireInt64(0)
                let rows = try tx.query("""
                    SELECT message_id, type, subject, subject_sequence, position FROM proj_webhooks.messages
                    WHERE subject = $1 AND subject_sequence > $2 AND position <= $4 ORDER BY subject_sequence LIMIT $3
                    """, [subject, after, limit + 1, through]).rows.map { r in
                    FeedItem(messageID: try r.requireString(0), type: try r.requireString(1), subject: try r.requireString(2),
                             sequence: try r.requireInt64(3), position: try r.requireInt64(4))
                }
                return (Array(rows.prefix(limit)), rows.count > limit, min(position, through))
            }
        }
    }
}

extension WebhooksReadModel {
    /// Which side of its `balance.low` threshold each watched subject of `webhook` was last
    /// recorded on (true: below), and the position of that crossing.
    public func balanceWatch(webhook: String) throws -> [String: (below: Bool, position: Int64)] {
        try connections.read { conn in
            var sides: [String: (below: Bool, position: Int64)] = [:]
            for r in try conn.query("SELECT subject, below, position FROM proj_webhooks.balance_watch WHERE webhook_id = $1",
                                    [webhook]).rows {
                sides[try r.requireString(0)] = (r.bool(1) ?? false, try r.requireInt64(2))
            }
            return sides
        }
    }
}
