import LedgerDomain
import Postgres

/// Every read of the webhooks projection's tables (`proj_webhooks`).
public struct WebhooksReadModel: Sendable {
    public let pool: PostgresPool

    public init(pool: PostgresPool) { self.pool = pool }

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
        try pool.read { conn in
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
