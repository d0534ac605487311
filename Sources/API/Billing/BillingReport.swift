import LedgerDomain
import LedgerJSON
import Postgres
import Projections

/// The billing surface's answers for callers outside HTTP (`ledger admin payer|project
/// show`, `ledger export usage`): the same rules as the endpoints, read in one snapshot,
/// as the JSON body the endpoint would send.
public enum BillingReport {
    /// `GET /v1/{payers|projects}/{id}/balance` at `now`; nil when there is no such account.
    public static func balance(of account: BillingAccount, pool: PostgresPool, now: Timestamp) throws -> JSONValue? {
        let response = try BillingReadModel(pool: pool).snapshot(now: now) { try BalanceEndpoint.response(account, reader: $0) }
        return try response.map { try JSONValueEncoder().encode($0) }
    }

    /// `GET /v1/{payers|projects}/{id}/usage?month=` at `now`; nil when there is no such account.
    public static func usage(of account: BillingAccount, month: UTCMonth, pool: PostgresPool, now: Timestamp) throws -> JSONValue? {
        let response = try BillingReadModel(pool: pool).snapshot(now: now) {
            try UsageEndpoint.response(account, month: month, reader: $0)
        }
        return try response.map { try JSONValueEncoder().encode($0) }
    }

    /// The `available` of the balance read (a pool's; nil for a funded project's share,
    /// which has none of its own, and for an account that does not exist): what
    /// `balance.low` watches.
    public static func available(of account: BillingAccount, pool: PostgresPool, now: Timestamp) throws -> Millicredits? {
        try BillingReadModel(pool: pool).snapshot(now: now) { try BalanceEndpoint.response(account, reader: $0) }?.available
    }
}
