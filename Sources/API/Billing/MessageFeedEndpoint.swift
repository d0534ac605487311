import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// The pull feed (`MessageFeedQuery`): a project's or a payer's webhook messages, in the
/// subject's order, so that a backend that was down fetches what it missed.
enum MessageFeedEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        let target = try ReadYourWrites.minimumPosition(request)
        let reader = try Authentication.reader(of: request, context: context, at: target)
        let limit = try BillingProblems.limit(request.query("limit"))
        let after = try request.query("after").map { text -> Int64 in
            guard let n = Int64(text), String(n) == text, n >= 0 else {
                throw BillingProblems.invalidParameter("after must be a message sequence number, 0 or more, got \(text.debugDescription)")
            }
            return n
        } ?? 0
        return try context.answer(MessageFeedQuery(account, after: after, limit: limit), as: reader, atLeast: target,
                                  since: request.receivedAt, notFound: { BillingProblems.notFound(account) }) { page in
            let body: JSONValue = .object([
                "subject": .string(page.subject), "messages": .array(page.messages), "has_more": .bool(page.hasMore),
                "next_after": page.nextAfter.map { .integer($0) } ?? .null, "position": .integer(page.position),
            ])
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                                body: body.compactBytes())
        }
    }
}
