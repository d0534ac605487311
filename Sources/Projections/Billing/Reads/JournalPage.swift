import LedgerDomain
import Postgres

/// One page of an account's posted journal (J1–J4), and where the projection stood.
public struct JournalPage: Sendable {
    public struct Entry: Sendable {
        public var id: JournalEntryID
        public var kind: String
        public var source: String?
        public var amount: Millicredits
        public var projectID: String?
        public var pool: String
        public var month: String?
        public var holdID: String?
        public var corrects: String?
        public var correctedBy: [String]
        public var description: String
        public var postedAt: String
    }

    public var entries: [Entry]
    /// More entries follow the page.
    public var hasMore: Bool
    public var position: Int64
}

extension BillingReadModel {
    /// The page of `account`'s entries after `after` (from the start when nil), at most
    /// `limit`; nil when the account does not exist. One statement, so one snapshot and
    /// one round trip: whether the account exists, the position the projection reached,
    /// the page, and each entry's corrections.
    public func journalPage(_ account: BillingAccount, after: JournalEntryID?, limit: Int) throws -> JournalPage? {
        let statement = Self.journalPageStatement(account, after: after, limit: limit)
        let rows = try pool.read { conn in try conn.query(statement.sql, statement.parameters) }
        guard rows.rowCount > 0, rows[0].bool(0) == true else { return nil }
        var entries: [JournalPage.Entry] = []
        for row in rows.rows where !row.isNull(2) {
            entries.append(JournalPage.Entry(
                id: JournalEntryID(position: try row.requireInt64(13), index: Int32(try row.requireInt64(14))),
                kind: try row.requireString(3), source: row.string(4), amount: Millicredits(try row.requireInt128(5)),
                projectID: row.string(6), pool: try row.requireString(7), month: row.string(8), holdID: row.string(9),
                corrects: row.string(10), correctedBy: row.string(15).map { $0.split(separator: ",").map(String.init) } ?? [],
                description: try row.requireString(11), postedAt: try row.requireString(12)))
        }
        return JournalPage(entries: Array(entries.prefix(limit)), hasMore: entries.count > limit, position: try rows[0].requireInt64(1))
    }

    /// The one statement behind `journalPage`, with its parameters: `ledger bench read`
    /// runs it straight through libpq as the baseline of the HTTP read.
    public static func journalPageStatement(_ account: BillingAccount, after: JournalEntryID?,
                                            limit: Int) -> (sql: String, parameters: [any PostgresBindable]) {
        (pageSQL(account), [account.key, after?.position ?? 0, Int(after?.index ?? -1), limit + 1, account.id])
    }

    static func pageSQL(_ account: BillingAccount) -> String {
        let exists = switch account {
        case .project: "EXISTS (SELECT 1 FROM proj_billing.projects WHERE project_id = $5)"
        case .payer: "EXISTS (SELECT 1 FROM proj_billing.payers WHERE payer_id = $5)"
        }
        return """
            SELECT h.found, h.reached, p.entry_id, p.kind, p.source, p.amount::text, p.project_id, p.pool, p.month, p.hold_id,
                   p.corrects, p.description, p.posted_at, p.position, p.idx,
                   (SELECT string_agg(c.correction_id, ',' ORDER BY c.position) FROM proj_billing.corrections c
                    WHERE c.account = $1 AND c.entry_id = p.entry_id)
            FROM (SELECT \(exists) AS found, (SELECT position FROM proj_billing._checkpoint) AS reached) h
            LEFT JOIN LATERAL (
                SELECT entry_id, kind, source, amount, project_id, pool, month, hold_id, corrects, description,
                       to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS posted_at, position, idx
                FROM proj_billing.journal
                WHERE account = $1 AND (position, idx) > ($2, $3)
                ORDER BY position, idx LIMIT $4
            ) p ON true
            ORDER BY p.position, p.idx
            """
    }
}
