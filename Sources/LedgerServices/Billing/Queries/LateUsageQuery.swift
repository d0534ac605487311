import LedgerDomain
import ProjectionEngine
import Projections

/// Usage recorded after its month had started closing for its pool, kept and never billed
/// (docs/billing.md, "Late usage"), oldest first, for an operator to correct
/// (`ledger audit late-usage`); of one pool and one month when given.
public struct LateUsageQuery: LedgerQuery {
    public var pool: Pool?
    public var month: UTCMonth?

    public init(pool: Pool? = nil, month: UTCMonth? = nil) {
        self.pool = pool
        self.month = month
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [LateUsageRecord]? {
        try reads.billing.lateUsage(pool: pool, month: month)
    }
}
