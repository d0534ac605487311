import LedgerDomain
import ProjectionEngine
import Projections

/// Every payer, its plan and the projects it funds now (`ledger admin payer list`): the
/// whole ledger's, so operators only.
public struct PayerListQuery: LedgerQuery {
    public init() {}

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [BillingDirectory.Payer]? {
        try reads.billing.snapshot(now: reads.now) { try $0.payers() }
    }
}
