import LedgerDomain
import ProjectionEngine
import Projections

/// The balance and the usage of each of `months` the account existed in (from the month
/// its first event was recorded, and any earlier month that holds usage, which may be
/// sent dated before the account was), from one snapshot, so that the figures side by
/// side agree (the console's account page).
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
        let pool: Pool = switch account {
        case .payer(let id): .payer(id)
        case .project(let id): .project(id)
        }
        let created = try reads.log.readStream(pool.ownerStream, from: 1, limit: 1).first.map { UTCMonth(containing: $0.recordedAt) }
        return try reads.billing.snapshot(now: reads.now) { reader in
            guard let balance = try BalanceView.read(account, reader: reader) else { return nil }
            let usage = try months.compactMap { month in
                try UsageView.read(account, month: month, reader: reader).map { (month, $0) }
            }
            return (balance, usage.filter { month, view in created.map { month >= $0 } ?? true || !view.isEmpty }.map(\.1))
        }
    }
}
