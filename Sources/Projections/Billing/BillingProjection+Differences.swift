import Postgres
import ProjectionEngine

extension BillingProjection: AccountFigures {
    /// Per account: the posted balance and what is held (over all its pools), and per
    /// project and month the usage counted, free, billed and its amount (millicredits).
    public func accountDifferences(build: String, live: String, on connection: PostgresConnection) throws -> [AccountDifference] {
        var out = try Self.balanceDifferences(build: build, live: live, accounts: nil, on: connection)
        let b = connection.quoteIdentifier(build), l = connection.quoteIdentifier(live)
        let usage = """
            SELECT 'project:' || project_id AS account, month, sum(api_requests + stream_events + webhook_deliveries) AS units,
                   sum(free_units) AS free_units, sum(billed_units) AS billed_units, sum(units_amount) AS units_amount
            FROM %@.project_months GROUP BY 1, 2
            """
        for row in try connection.query("""
            SELECT coalesce(b.account, l.account), 'usage ' || coalesce(b.month, l.month) || ' ' || f.figure,
                   coalesce(f.live, 0)::text, coalesce(f.rebuilt, 0)::text
            FROM (\(usage.replacingOccurrences(of: "%@", with: b))) b
            FULL JOIN (\(usage.replacingOccurrences(of: "%@", with: l))) l ON b.account = l.account AND b.month = l.month
            CROSS JOIN LATERAL (VALUES ('units', l.units, b.units), ('free_units', l.free_units, b.free_units),
                                       ('billed_units', l.billed_units, b.billed_units),
                                       ('units_amount', l.units_amount, b.units_amount)) AS f (figure, live, rebuilt)
            WHERE coalesce(f.live, 0) <> coalesce(f.rebuilt, 0)
            ORDER BY 1, 2
            """).rows {
            out.append(AccountDifference(account: try row.requireString(0), figure: try row.requireString(1),
                                         live: try row.requireString(2), rebuilt: try row.requireString(3)))
        }
        return out
    }

    /// Per account (all of them, or only `accounts`): the posted balance and what is held,
    /// over all its pools, where `build` and `live` differ. A rebuild and the drift check
    /// both name these figures, computed here alone.
    static func balanceDifferences(build: String, live: String, accounts: [String]?,
                                   on connection: PostgresConnection) throws -> [AccountDifference] {
        let b = connection.quoteIdentifier(build), l = connection.quoteIdentifier(live)
        let only: PostgresTextArray? = accounts.map { PostgresTextArray($0) }
        let balances = """
            SELECT account, sum(credit_plan + credit_purchase + credit_grant + correction + usage_posted + hold_posted) AS posted,
                   sum(hold_held) AS held
            FROM %@.balances WHERE $1::text[] IS NULL OR account = ANY($1::text[]) GROUP BY account
            """
        return try connection.query("""
            SELECT coalesce(b.account, l.account), f.figure, coalesce(f.live, 0)::text, coalesce(f.rebuilt, 0)::text
            FROM (\(balances.replacingOccurrences(of: "%@", with: b))) b
            FULL JOIN (\(balances.replacingOccurrences(of: "%@", with: l))) l ON b.account = l.account
            CROSS JOIN LATERAL (VALUES ('posted', l.posted, b.posted), ('held', l.held, b.held)) AS f (figure, live, rebuilt)
            WHERE coalesce(f.live, 0) <> coalesce(f.rebuilt, 0)
            ORDER BY 1, 2
            """, [only]).rows.map { row in
            AccountDifference(account: try row.requireString(0), figure: try row.requireString(1),
                              live: try row.requireString(2), rebuilt: try row.requireString(3))
        }
    }
}
