import LedgerDomain
import Postgres

/// One page of an account's posted journal (J1–J4), and where the projection stood.
///
/// The page keeps the statement's rows and lends their text as bytes, so that an answer
/// is written straight from them: a page of 50 entries built as strings first, then
/// copied, then written, cost as much CPU as the statement that read it. `entries`
/// builds the values for whoever wants them.
public struct JournalPage: Sendable {
    public struct Entry: Sendable, Equatable {
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

        public init(id: JournalEntryID, kind: String, source: String?, amount: Millicredits, projectID: String?, pool: String,
                    month: String?, holdID: String?, corrects: String?, correctedBy: [String], description: String,
                    postedAt: String) {
            self.id = id
            self.kind = kind
            self.source = source
            self.amount = amount
            self.projectID = projectID
            self.pool = pool
            self.month = month
            self.holdID = holdID
            self.corrects = corrects
            self.correctedBy = correctedBy
            self.description = description
            self.postedAt = postedAt
        }
    }

    /// An entry's text members, by the statement's column (see `pageSQL`).
    public enum Text: Int, Sendable, CaseIterable {
        case kind = 3, source = 4, projectID = 6, pool = 7, month = 8, holdID = 9, corrects = 10, description = 11
        case postedAt = 12
        /// The ids of the corrections of the entry, oldest first, joined by commas.
        case correctedBy = 15

        /// The members that are never NULL for an entry.
        static let required: [Text] = [.kind, .pool, .description, .postedAt]
    }

    @usableFromInline let result: PostgresResult
    /// The rows that hold the page's entries, in order.
    @usableFromInline let rows: [Int]
    @usableFromInline let ids: [JournalEntryID]
    @usableFromInline let amounts: [Millicredits]
    /// More entries follow the page.
    public let hasMore: Bool
    public let position: Int64

    @inlinable public var count: Int { ids.count }
    @inlinable public func id(at index: Int) -> JournalEntryID { ids[index] }
    @inlinable public func amount(at index: Int) -> Millicredits { amounts[index] }

    /// Lends the UTF-8 bytes of an entry's text member (nil for NULL) for the duration of
    /// `body`. They are valid UTF-8: every session sets `client_encoding` to UTF8.
    @inlinable
    public func withText<T>(_ member: Text, at index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        try result.withUnsafeValue(row: rows[index], column: member.rawValue, body)
    }

    public var entries: [Entry] {
        (0..<count).map { i in
            func text(_ member: Text) -> String? {
                withText(member, at: i) { $0.map { String(decoding: $0, as: UTF8.self) } }
            }
            return Entry(id: ids[i], kind: text(.kind)!, source: text(.source), amount: amounts[i], projectID: text(.projectID),
                         pool: text(.pool)!, month: text(.month), holdID: text(.holdID), corrects: text(.corrects),
                         correctedBy: text(.correctedBy).map { $0.split(separator: ",").map(String.init) } ?? [],
                         description: text(.description)!, postedAt: text(.postedAt)!)
        }
    }

    /// The page in the rows of `BillingReadModel.journalPageStatement` asked for `limit`
    /// entries (it reads one more, to know whether more follow); nil when the account
    /// does not exist. Every row is checked here, so that the accessors cannot fail.
    public init?(rows result: PostgresResult, limit: Int) throws {
        guard result.rowCount > 0, result[0].bool(0) == true else { return nil }
        var rows: [Int] = [], ids: [JournalEntryID] = [], amounts: [Millicredits] = []
        rows.reserveCapacity(min(limit, result.rowCount))
        ids.reserveCapacity(min(limit, result.rowCount))
        amounts.reserveCapacity(min(limit, result.rowCount))
        var found = 0
        for r in 0..<result.rowCount where !result.isNull(row: r, column: 2) {
            found += 1
            guard found <= limit else { continue }
            let row = result[r]
            guard let index = Int32(exactly: try row.requireInt64(14)) else {
                throw PostgresError(code: .unexpectedResult, message: "journal idx out of range")
            }
            ids.append(JournalEntryID(position: try row.requireInt64(13), index: index))
            amounts.append(Millicredits(try row.requireInt128(5)))
            for member in Text.required where row.isNull(member.rawValue) {
                throw PostgresError(code: .unexpectedResult, message: "journal column \(result.columnName(member.rawValue)) is NULL")
            }
            rows.append(r)
        }
        self.result = result
        self.rows = rows
        self.ids = ids
        self.amounts = amounts
        self.hasMore = found > limit
        self.position = try result[0].requireInt64(1)
    }
}

extension BillingReadModel {
    /// The page of `account`'s entries after `after` (from the start when nil), at most
    /// `limit`; nil when the account does not exist. One statement, so one snapshot and
    /// one round trip: whether the account exists, the position the projection reached,
    /// the page, and each entry's corrections.
    public func journalPage(_ account: BillingAccount, after: JournalEntryID?, limit: Int) throws -> JournalPage? {
        let statement = Self.journalPageStatement(account, after: after, limit: limit)
        let rows = try connections.read { conn in try conn.query(statement.sql, statement.parameters) }
        return try JournalPage(rows: rows, limit: limit)
    }

    /// The one statement behind `journalPage`, with its parameters: `ledger bench read`
    /// runs it straight through libpq as the baseline of the HTTP read.
    public static func journalPageStatement(_ account: BillingAccount, after: JournalEntryID?,
                                            limit: Int) -> (sql: String, parameters: [any PostgresBindable]) {
        (pageSQL(account), [account.key, after?.position ?? 0, Int(after?.index ?? -1), limit + 1, account.id])
    }

    /// The columns of its rows are those `JournalPage` reads by number: keep them in step.
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
