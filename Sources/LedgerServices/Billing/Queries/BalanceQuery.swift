import LedgerDomain
import ProjectionEngine
import Projections

/// B1–B4: the balance of a payer or a project, as `GET …/balance` answers it, the console
/// shows it, `ledger admin payer|project show` prints it and `balance.low` watches it.
public struct BalanceQuery: LedgerQuery {
    public var account: BillingAccount

    public init(_ account: BillingAccount) { self.account = account }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(account) }

    public func read(_ reads: QueryReads) throws -> BalanceView? {
        try reads.billing.snapshot(now: reads.now) { try BalanceView.read(account, reader: $0) }
    }
}
