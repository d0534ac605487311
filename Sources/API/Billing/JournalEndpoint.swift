import HTTP
import LedgerDomain
import Postgres

/// J1–J4: posted entries, oldest first, with a stable opaque cursor.
enum JournalEndpoint {
    static let defaultLimit = 50
    static let maximumLimit = 200

    struct Entry: Codable, Sendable {
        var id: String
        var kind: String
        var source: String?
        var amount: Millicredits
        var projectID: String?
        var pool: String
        var month: String?
        var holdID: String?
        var corrects: String?
        var correctedBy: [String]
        var description: String
        var postedAt: String
        var position: Int64

        enum CodingKeys: String, CodingKey {
            case id, kind, source, amount, pool, month, corrects, description, position
            case projectID = "project_id", holdID = "hold_id", correctedBy = "corrected_by", postedAt = "posted_at"
        }
    }

    struct Response: Codable, Sendable {
        var account: AccountRef
        var entries: [Entry]
        var hasMore: Bool
        var nextCursor: String?
        var position: Int64

        enum CodingKeys: String, CodingKey {
            case account, entries, position
            case hasMore = "has_more", nextCursor = "next_cursor"
        }
    }

    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        let principal = try Authentication.principal(of: request, context: context)
        try Authentication.authorize(principal, toRead: account)
        let limit = try parseLimit(request.query("limit"))
        let after = try request.query("cursor").map {
            try JournalCursor.decode($0, account: account.key, secret: context.cursorSecret)
        }
        try ReadYourWrites.wait(request, context: context) { try handle(request, account: account, context: context) }
        // One statement, so one snapshot and one round trip: whether the account exists,
        // the position the projection reached, the page, and each entry's corrections.
        let rows = try context.pool.read { conn in
            try conn.query(Self.pageSQL(account), [account.key, after?.position ?? 0, Int(after?.index ?? -1), limit + 1, account.id])
        }
        guard rows.rowCount > 0, rows[0].bool(0) == true else { throw BillingProblems.notFound(account) }
        var entries: [Entry] = []
        var last: JournalEntryID?
        for row in rows.rows.prefix(limit) where !row.isNull(2) {
            entries.append(Entry(id: try row.requireString(2), kind: try row.requireString(3), source: row.string(4),
                                 amount: Millicredits(try row.requireInt64(5)), projectID: row.string(6),
                                 pool: try row.requireString(7), month: row.string(8), holdID: row.string(9),
                                 corrects: row.string(10),
                                 correctedBy: row.string(15).map { $0.split(separator: ",").map(String.init) } ?? [],
                                 description: try row.requireString(11), postedAt: try row.requireString(12),
                                 position: try row.requireInt64(13)))
            last = JournalEntryID(position: try row.requireInt64(13), index: Int32(try row.requireInt64(14)))
        }
        let entryRows = rows.rows.filter { !$0.isNull(2) }.count
        // The cursor after the last entry is returned even on the last page, so that a
        // client can come back later for the entries posted since (J1): new entries only
        // ever go after it. On an empty page it is the cursor the client sent.
        let resume = last ?? after
        let response = Response(account: account.json, entries: entries, hasMore: entryRows > limit,
                                nextCursor: resume.map { JournalCursor.encode($0, account: account.key, secret: context.cursorSecret) },
                                position: try rows[0].requireInt64(1))
        return .json(response, headers: ["Cache-Control": "no-store"])
    }

    static func pageSQL(_ account: BillingAccount) -> String {
        let exists = switch account {
        case .project: "EXISTS (SELECT 1 FROM proj_billing.projects WHERE project_id = $5)"
        case .payer: "EXISTS (SELECT 1 FROM proj_billing.payers WHERE payer_id = $5)"
        }
        return """
            SELECT h.found, h.reached, p.entry_id, p.kind, p.source, p.amount, p.project_id, p.pool, p.month, p.hold_id,
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

    static func parseLimit(_ text: String?) throws -> Int {
        guard let text else { return defaultLimit }
        guard let n = Int(text), String(n) == text, (1...maximumLimit).contains(n) else {
            throw BillingProblems.invalidParameter("limit must be an integer from 1 to \(maximumLimit), got \(text.debugDescription)")
        }
        return n
    }
}
