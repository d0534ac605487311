import HTTP
import LedgerDomain
import LedgerServices

/// J1–J4: posted entries, oldest first, with a stable opaque cursor (`JournalQuery`).
enum JournalEndpoint {
    /// The answer: the page as the read model returned it, written straight from its
    /// rows (`JournalEndpoint+Writing.swift`), and the cursor after it.
    struct Response: Sendable {
        var account: AccountRef
        var page: JournalQuery.Page
        var nextCursor: String?
    }

    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        let target = try ReadYourWrites.minimumPosition(request)
        let reader = try Authentication.reader(of: request, context: context, at: target)
        let limit = try BillingProblems.limit(request.query("limit"))
        let after = try request.query("cursor").map {
            try JournalCursor.decode($0, account: account.key, secret: context.cursorSecret)
        }
        let secret = context.cursorSecret
        return try context.answer(JournalQuery(account, after: after, limit: limit), as: reader, atLeast: target,
                                  since: request.receivedAt, notFound: { BillingProblems.notFound(account) }) { page in
            // The cursor after the last entry is returned even on the last page, so that a
            // client can come back later for the entries posted since (J1): new entries only
            // ever go after it. On an empty page it is the cursor the client sent.
            let resume = page.count > 0 ? page.id(at: page.count - 1) : after
            let response = Response(account: account.json, page: page,
                                    nextCursor: resume.map { JournalCursor.encode($0, account: account.key, secret: secret) })
            return .json(streaming: response, headers: ["Cache-Control": "no-store"])
        }
    }
}
