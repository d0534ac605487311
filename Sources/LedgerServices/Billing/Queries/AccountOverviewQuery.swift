import LedgerDomain
import ProjectionEngine
import Projections

/// The balance and the usage of each of `months`, from one snapshot, so that the figures
/// side by side agree (the console's account page).
public struct AccountOverviewQuery: LedgerQuery {
    public var account: BillingAccount
    public var months: [UTCMonth]

    public init(_ account: BillingAccount, months: [UTCMonth]) {
        self.account = account
        self.months = months
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(account) }

    public func read(_ reads: QueryReads) throws -> (balance: BalanceView, usage: [UsageView])? {
        try reads.billing.snapshot(now: reads.now) { reader in
            guard let balance = try BalanceView.read(account, reader: reader) else { return nil }
            return (balance, try months.compactMap { try UsageView.read(account, month: $0, reader: reader) })
        }
    }
}
