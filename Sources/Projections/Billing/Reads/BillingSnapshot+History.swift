import LedgerDomain
import Postgres

extension BillingSnapshot {
    /// What `account` posted on `pool` per UTC day from `since` on, and before it: one
    /// statement over the account's journal (its primary key leads with the account), in
    /// this snapshot, so that it adds up to the balance read beside it.
    public func postedByDay(_ account: String, pool: Pool, since: Timestamp) throws -> PostedByDay {
        let rows = try conn.query("""
            SELECT CASE WHEN occurred_at < to_timestamp($3::numeric / 1000000) THEN NULL
                        ELSE to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') END AS day,
                   sum(amount)::text
            FROM proj_billing.journal WHERE account = $1 AND pool = $2
            GROUP BY 1 ORDER BY 1 NULLS FIRST
            """, [account, pool.description, since.microseconds])
        var history = PostedByDay(before: .zero, days: [])
        for row in rows.rows {
            let net = Millicredits(try row.requireInt128(1))
            if let day = row.string(0) { history.days.append(PostedByDay.Day(date: day, net: net)) } else { history.before = net }
        }
        return history
    }
}
