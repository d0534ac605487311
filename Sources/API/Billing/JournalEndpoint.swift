import HTTP
import LedgerDomain
import LedgerServices
import Projections

/// J1–J4: posted entries, oldest first, with a stable opaque cursor.
enum JournalEndpoint {
    static let defaultLimit = 50
    static let maximumLimit = 200

    /// The answer: the page as the read model returned it, written straight from its
    /// rows (`JournalEndpoint+Writing.swift`), and the cursor after it.
    struct Response: Sendable {
        var account: AccountRef
        var page: JournalPage
        var nextCursor: String?
    }

    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        try ReadYourWrites.wait(request, reading: account, context: context) { try handle(request, account: account, context: context) }
        return try context.reading(BillingProjection(), for: request) { pool in
            let principal = try Authentication.principal(of: request, context: context, pool: pool)
            try Authentication.authorize(principal, toRead: account)
            let limit = try parseLimit(request.query("limit"))
            let after = try request.query("cursor").map {
                try JournalCursor.decode($0, account: account.key, secret: context.cursorSecret)
            }
            guard let page = try BillingReadModel(pool: pool).journalPage(account, after: after, limit: limit) else {
                throw BillingProblems.notFound(account)
            }
            // The cursor after the last entry is returned even on the last page, so that a
            // client can come back later for the entries posted since (J1): new entries only
            // ever go after it. On an empty page it is the cursor the client sent.
            let resume = page.count > 0 ? page.id(at: page.count - 1) : after
            let response = Response(account: account.json, page: page,
                                    nextCursor: resume.map { JournalCursor.encode($0, account: account.key, secret: context.cursorSecret) })
            return .json(streaming: response, headers: ["Cache-Control": "no-store"])
        }
    }

    static func parseLimit(_ text: String?) throws -> Int {
        guard let text else { return defaultLimit }
        guard let n = Int(text), String(n) == text, (1...maximumLimit).contains(n) else {
            throw BillingProblems.invalidParameter("limit must be an integer from 1 to \(maximumLimit), got \(text.debugDescription)")
        }
        return n
    }
}
