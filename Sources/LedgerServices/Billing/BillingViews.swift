import LedgerDomain
import Postgres
import Projections

/// The billing views read in one snapshot of the billing projection, for every surface
/// that shows them: the API encodes them, the console renders them, `ledger admin` and
/// `ledger export` print them, the webhook sender watches `available`.
public enum BillingViews {
    /// B1–B4: the balance of `account` at `now`; nil when there is no such account.
    public static func balance(of account: BillingAccount, pool: PostgresPool, now: Timestamp) throws -> BalanceView? {
        try BillingReadModel(pool: pool).snapshot(now: now) { try BalanceView.read(account, reader: $0) }
    }

    /// U1–U7: the usage of `account` in `month` at `now`; nil when there is no such account.
    public static func usage(of account: BillingAccount, month: UTCMonth, pool: PostgresPool, now: Timestamp) throws -> UsageView? {
        try BillingReadModel(pool: pool).snapshot(now: now) { try UsageView.read(account, month: month, reader: $0) }
    }

    /// The balance and the usage of each of `months`, all from one snapshot (what the
    /// console's page shows side by side); nil when there is no such account.
    public static func balanceAndUsage(of account: BillingAccount, months: [UTCMonth], pool: PostgresPool,
                                       now: Timestamp) throws -> (balance: BalanceView, usage: [UsageView])? {
        try BillingReadModel(pool: pool).snapshot(now: now) { reader in
            guard let balance = try BalanceView.read(account, reader: reader) else { return nil }
            return (balance, try months.compactMap { try UsageView.read(account, month: $0, reader: reader) })
        }
    }

    /// The `available` of the balance (a pool's; nil for a funded project's share, which
    /// has none of its own, and for an account that does not exist): what `balance.low`
    /// watches.
    public static func available(of account: BillingAccount, pool: PostgresPool, now: Timestamp) throws -> Millicredits? {
        try balance(of: account, pool: pool, now: now)?.available
    }
}
