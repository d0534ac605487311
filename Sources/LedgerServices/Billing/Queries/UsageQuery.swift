import LedgerDomain
import ProjectionEngine
import Projections

/// U1–U7: the usage of a payer or a project in one UTC month (the month of the query's
/// instant when none is named), as `GET …/usage` answers it and `ledger export usage` writes it.
public struct UsageQuery: LedgerQuery {
    public var account: BillingAccount
    public var month: UTCMonth?

    public init(_ account: BillingAccount, month: UTCMonth? = nil) {
        self.account = account
        self.month = month
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(account) }

    public func read(_ reads: QueryReads) throws -> UsageView? {
        let month = month ?? UTCMonth(containing: reads.now)
        return try reads.billing.snapshot(now: reads.now) { try UsageView.read(account, month: month, reader: $0) }
    }
}
