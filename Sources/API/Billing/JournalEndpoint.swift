import HTTP
import LedgerDomain
import Projections

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
        guard let page = try BillingReadModel(pool: context.pool).journalPage(account, after: after, limit: limit) else {
            throw BillingProblems.notFound(account)
        }
        let entries = page.entries.map { e in
            Entry(id: e.id.description, kind: e.kind, source: e.source, amount: e.amount, projectID: e.projectID, pool: e.pool,
                  month: e.month, holdID: e.holdID, corrects: e.corrects, correctedBy: e.correctedBy, description: e.description,
                  postedAt: e.postedAt, position: e.id.position)
        }
        // The cursor after the last entry is returned even on the last page, so that a
        // client can come back later for the entries posted since (J1): new entries only
        // ever go after it. On an empty page it is the cursor the client sent.
        let resume = page.entries.last?.id ?? after
        let response = Response(account: account.json, entries: entries, hasMore: page.hasMore,
                                nextCursor: resume.map { JournalCursor.encode($0, account: account.key, secret: context.cursorSecret) },
                                position: page.position)
        return .json(streaming: response, headers: ["Cache-Control": "no-store"])
    }

    static func parseLimit(_ text: String?) throws -> Int {
        guard let text else { return defaultLimit }
        guard let n = Int(text), String(n) == text, (1...maximumLimit).contains(n) else {
            throw BillingProblems.invalidParameter("limit must be an integer from 1 to \(maximumLimit), got \(text.debugDescription)")
        }
        return n
    }
}
