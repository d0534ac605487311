import LedgerDomain

/// A change to a webhook subscription, judged on its `webhook-<id>` stream read whole and
/// appended at the version read: a change made meanwhile is a conflict to retry.
public struct WebhookChangeAct: LedgerAct {
    public enum Change: Sendable {
        case disable
        /// The previous secret keeps signing for `overlap` microseconds.
        case rotateSecret(overlap: Int64)
    }

    public var id: String
    public var change: Change

    public init(id: String, _ change: Change) {
        self.id = id
        self.change = change
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let events = try reads.stream(WebhookDecider.stream(id))
        let subscription = try WebhookDecider.Subscription(id: id, stream: events.map { (type: $0.type, data: try $0.data()) })
        let version = events.last?.streamVersion ?? 0
        switch change {
        case .disable: return try WebhookDecider.disable(subscription, id: id, version: version)
        case .rotateSecret(let overlap): return try WebhookDecider.rotate(subscription, id: id, version: version, now: reads.now(), overlap: overlap)
        }
    }
}
