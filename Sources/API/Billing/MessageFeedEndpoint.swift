import EventStore
import HTTP
import LedgerDomain
import LedgerJSON
import Postgres
import Projections

/// The pull feed: a project's or a payer's webhook messages, the same ones a subscription
/// receives (same ids, same bodies but for `sequence`, which here is the subject's), in
/// the subject's order, so that a backend that was down fetches what it missed.
enum MessageFeedEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        try ReadYourWrites.wait(request, reading: account, context: context) { try handle(request, account: account, context: context) }
        return try context.reading(WebhooksProjection(), for: request) { pool in
            let principal = try Authentication.principal(of: request, context: context, pool: pool)
            try Authentication.authorize(principal, toRead: account)
            let limit = try JournalEndpoint.parseLimit(request.query("limit"))
            let after = try request.query("after").map { text -> Int64 in
                guard let n = Int64(text), String(n) == text, n >= 0 else {
                    throw BillingProblems.invalidParameter("after must be a message sequence number, 0 or more, got \(text.debugDescription)")
                }
                return n
            } ?? 0
            guard try BillingReadModel(pool: pool).snapshot(now: context.now(), { try $0.exists(account) }) else {
                throw BillingProblems.notFound(account)
            }
            let subject = account.key
            let states = WebhookMessageState(pool: pool)
            let page = try WebhooksReadModel(pool: pool).feed(subject: subject, after: after, limit: limit,
                                                                      through: try states.readyThrough())
            let events = Dictionary(uniqueKeysWithValues: try context.store.log.events(at: page.items.map(\.position)).map { ($0.position, $0) })
            let messages = try page.items.map { item -> JSONValue in
                guard let event = events[item.position] else {
                    throw PostgresError(code: .unexpectedResult, message: "the log has no event at \(item.position)")
                }
                return try WebhookMessageBody.object(id: item.messageID, type: item.type, subject: item.subject, sequence: item.sequence,
                                                     event: event, state: states.state(type: item.type, subject: item.subject, event: event))
            }
            let body: JSONValue = .object([
                "subject": .string(subject), "messages": .array(messages), "has_more": .bool(page.hasMore),
                "next_after": page.items.last.map { .integer($0.sequence) } ?? .null, "position": .integer(page.position),
            ])
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: body.compactBytes())
        }
    }
}
