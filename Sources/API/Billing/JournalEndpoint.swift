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
        try ReadYourWrites.wait(request, context: context)
        let response = try BillingReader.read(context.pool, now: context.now()) { reader -> Response? in
            guard try reader.exists(account) else { return nil }
            let rows = try reader.conn.query("""
                SELECT entry_id, kind, source, amount, project_id, pool, month, hold_id, corrects, description,
                       to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), position, idx
                FROM proj_billing.journal
                WHERE account = $1 AND (position, idx) > ($2, $3)
                ORDER BY position, idx LIMIT $4
                """, [account.key, after?.position ?? 0, Int(after?.index ?? -1), limit + 1])
            var entries: [Entry] = []
            var last: JournalEntryID?
            for row in rows.rows.prefix(limit) {
                entries.append(Entry(id: try row.requireString(0), kind: try row.requireString(1), source: row.string(2),
                                     amount: Millicredits(try row.requireInt64(3)), projectID: row.string(4),
                                     pool: try row.requireString(5), month: row.string(6), holdID: row.string(7),
                                     corrects: row.string(8), correctedBy: [], description: try row.requireString(9),
                                     postedAt: try row.requireString(10), position: try row.requireInt64(11)))
                last = JournalEntryID(position: try row.requireInt64(11), index: Int32(try row.requireInt64(12)))
            }
            if !entries.isEmpty {
                let corrected = try reader.conn.query("""
                    SELECT entry_id, correction_id FROM proj_billing.corrections
                    WHERE account = $1 AND entry_id = ANY($2::text[]) ORDER BY position
                    """, [account.key, PostgresTextArray(entries.map(\.id))])
                var byEntry: [String: [String]] = [:]
                for row in corrected.rows { byEntry[try row.requireString(0), default: []].append(try row.requireString(1)) }
                for i in entries.indices { entries[i].correctedBy = byEntry[entries[i].id] ?? [] }
            }
            // The cursor after the last entry is returned even on the last page, so that a
            // client can come back later for the entries posted since (J1): new entries only
            // ever go after it. On an empty page it is the cursor the client sent.
            let resume = last ?? after
            return Response(account: account.json, entries: entries, hasMore: rows.rowCount > limit,
                            nextCursor: resume.map { JournalCursor.encode($0, account: account.key, secret: context.cursorSecret) },
                            position: try reader.position())
        }
        guard let response else { throw BillingProblems.notFound(account) }
        return .json(response, headers: ["Cache-Control": "no-store"])
    }

    static func parseLimit(_ text: String?) throws -> Int {
        guard let text else { return defaultLimit }
        guard let n = Int(text), String(n) == text, (1...maximumLimit).contains(n) else {
            throw BillingProblems.invalidParameter("limit must be an integer from 1 to \(maximumLimit), got \(text.debugDescription)")
        }
        return n
    }
}
