import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections

/// The pull feed: a project's or a payer's webhook messages, the same ones a subscription
/// receives (same ids, same bodies but for `sequence`, which here is the subject's), in
/// the subject's order, so that a backend that was down fetches what it missed. It reads
/// the webhooks projection (the messages) and the billing projection (whether the account
/// exists), so a read at a position waits for both.
public struct MessageFeedQuery: LedgerQuery {
    public var account: BillingAccount
    /// The `sequence` of the last message seen.
    public var after: Int64
    public var limit: Int

    public init(_ account: BillingAccount, after: Int64 = 0, limit: Int = JournalQuery.defaultLimit) {
        precondition(after >= 0 && limit >= 1, "a feed page starts at a sequence of 0 or more and holds at least one message")
        self.account = account
        self.after = after
        self.limit = limit
    }

    /// One page of the feed.
    public struct Page: Sendable {
        public var subject: String
        /// Each message's body, as a subscription receives it.
        public var messages: [JSONValue]
        public var hasMore: Bool
        /// The `sequence` of the last message, to read on from; nil on an empty page.
        public var nextAfter: Int64?
        /// The webhooks projection's position the page was read at.
        public var position: Int64
    }

    public var projections: [any Projection] { [WebhooksProjection(), BillingProjection()] }
    public var subject: QuerySubject { .account(account) }

    public func read(_ reads: QueryReads) throws -> Page? {
        guard try reads.billing.snapshot(now: reads.now, { try $0.exists(account) }) else { return nil }
        let subject = account.key
        let states = WebhookMessageState(connections: reads.connections)
        let page = try reads.webhooks.feed(subject: subject, after: after, limit: limit, through: try states.readyThrough())
        let events = Dictionary(uniqueKeysWithValues: try reads.log.events(at: page.items.map(\.position)).map { ($0.position, $0) })
        let messages = try page.items.map { item -> JSONValue in
            guard let event = events[item.position] else {
                throw PostgresError(code: .unexpectedResult, message: "the log has no event at \(item.position)")
            }
            return try WebhookMessageBody.object(id: item.messageID, type: item.type, subject: item.subject, sequence: item.sequence,
                                                 event: event, state: states.state(type: item.type, subject: item.subject, event: event))
        }
        return Page(subject: subject, messages: messages, hasMore: page.hasMore, nextAfter: page.items.last?.sequence,
                    position: page.position)
    }
}
