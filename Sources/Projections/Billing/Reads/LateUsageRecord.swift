import LedgerDomain

/// A usage event recorded after its month had started closing for its pool, which the
/// fold keeps and never bills (docs/billing.md, "Late usage"); an operator may correct it.
public struct LateUsageRecord: Sendable, Codable, Equatable {
    public var position: Int64
    public var usageID: String
    public var projectID: String
    public var pool: String
    public var month: String
    public var meter: String
    public var quantity: Int64
    enum CodingKeys: String, CodingKey {
        case position, usageID = "usage_id", projectID = "project_id", pool, month, meter, quantity
    }
}

extension BillingReadModel {
    /// Late usage, oldest first, of one pool and month when given.
    public func lateUsage(pool: Pool? = nil, month: UTCMonth? = nil) throws -> [LateUsageRecord] {
        try self.connections.read { conn in
            try conn.query("""
                SELECT position, usage_id, project_id, pool, month, meter, quantity FROM proj_billing.late_usage
                WHERE ($1::text IS NULL OR pool = $1) AND ($2::text IS NULL OR month = $2) ORDER BY position
                """, [pool?.description, month?.description]).rows.map { r in
                LateUsageRecord(position: try r.requireInt64(0), usageID: try r.requireString(1), projectID: try r.requireString(2),
                                pool: try r.requireString(3), month: try r.requireString(4), meter: try r.requireString(5),
                                quantity: try r.requireInt64(6))
            }
        }
    }
}
