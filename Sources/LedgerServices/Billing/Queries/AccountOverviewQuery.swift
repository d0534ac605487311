import LedgerDomain
import ProjectionEngine
import Projections

/// The balance, the usage of each of `months` the account existed in (from the month
/// its first event was recorded, and any earlier month that holds usage, which may be
/// sent dated before the account was), and the posted balance after each day since the
/// first of `months` began (or the account was created), from one snapshot, so that the
/// figures side by side agree: the history ends on the balance's `posted` (the console's
/// account page and its charts).
public struct AccountOverviewQuery: LedgerQuery {
    public var account: BillingAccount
    public var months: [UTCMonth]

    public init(_ account: BillingAccount, months: [UTCMonth]) {
        self.account = account
        self.months = months
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(account) }

    public func read(_ reads: QueryReads) throws -> (balance: BalanceView, usage: [UsageView], history: BalanceHistory)? {
        let owner: Pool = switch account {
        case .payer(let id): .payer(id)
        case .project(let id): .project(id)
        }
        let first = try reads.log.readStream(owner.ownerStream, from: 1, limit: 1).first
        let created = first.map { UTCMonth(containing: $0.recordedAt) }
        // The history is of business time, as the journal's days are: it starts when the
        // account was created by that clock (anything posted dated earlier is its opening).
        let from = max(months.min()?.start ?? .minimum, first?.occurredAt ?? .minimum)
        return try reads.billing.snapshot(now: reads.now) { reader in
            guard let balance = try BalanceView.read(account, reader: reader),
                  let pool = try BalanceView.currentPool(of: account, reader: reader) else { return nil }
            let usage = try months.compactMap { month in
                try UsageView.read(account, month: month, reader: reader).map { (month, $0) }
            }
            let history = try BalanceHistory.read(account, pool: pool, from: from, reader: reader)
            return (balance, usage.filter { month, view in created.map { month >= $0 } ?? true || !view.isEmpty }.map(\.1), history)
        }
    }
}
