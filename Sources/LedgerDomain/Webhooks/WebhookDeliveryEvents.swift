/// `webhook.delivery_attempted`, on `webhook-<id>-deliveries`: one attempt to send a
/// subscription's message `sequence`, with what came of it. The dispatcher appends it
/// after the attempt (so a crash in between sends the message again, with the same id:
/// at least once), with the U4 usage of the attempt in the same append.
public struct WebhookDeliveryAttempted: DomainEvent {
    public static let type = "webhook.delivery_attempted"

    public enum Outcome: String, Sendable, Hashable, Codable {
        /// Answered 2xx: the next message of the subscription goes next.
        case delivered
        /// Not answered 2xx; tried again at `next_attempt_at`.
        case retrying
        /// Not answered 2xx for three days: set aside until an operator retries it; the
        /// subscription's next message goes next.
        case dead
    }

    public var webhookID: String
    public var sequence: Int64
    public var messageID: String
    public var attempt: Int64
    public var outcome: Outcome
    /// The HTTP status, when there was an answer.
    public var status: Int64?
    /// Why there was no answer (`timed_out`, `refused_address`, …).
    public var error: String?
    public var latencyMilliseconds: Int64
    /// The SHA-256 of the answer's body, lowercase hex, when there was an answer: enough
    /// to match what the receiver says it answered, without its bytes in the log.
    public var answerSHA256: String?
    /// The answer body's length in bytes, when there was an answer.
    public var answerBytes: Int64?
    /// The answer's first KiB, as events recorded before the digest carry it (docs/security.md, "Third-party bytes in the log"):
    /// read so that they still decode and fold, never written again (no initializer sets
    /// it) and never projected.
    public private(set) var excerpt: String?
    public var nextAttemptAt: Timestamp?

    enum CodingKeys: String, CodingKey {
        case webhookID = "webhook_id", sequence, messageID = "message_id", attempt, outcome, status, error
        case latencyMilliseconds = "latency_ms", answerSHA256 = "answer_sha256", answerBytes = "answer_bytes", excerpt
        case nextAttemptAt = "next_attempt_at"
    }

    public init(webhookID: String, sequence: Int64, messageID: String, attempt: Int64, outcome: Outcome, status: Int64?,
                error: String?, latencyMilliseconds: Int64, answerSHA256: String?, answerBytes: Int64?, nextAttemptAt: Timestamp?) {
        self.webhookID = webhookID
        self.sequence = sequence
        self.messageID = messageID
        self.attempt = attempt
        self.outcome = outcome
        self.status = status
        self.error = error
        self.latencyMilliseconds = latencyMilliseconds
        self.answerSHA256 = answerSHA256
        self.answerBytes = answerBytes
        self.excerpt = nil
        self.nextAttemptAt = nextAttemptAt
    }
}

/// `webhook.delivery_retried`, on `webhook-<id>-deliveries`: an operator sends a dead
/// message again (`ledger admin webhook retry`).
public struct WebhookDeliveryRetried: DomainEvent {
    public static let type = "webhook.delivery_retried"
    public var webhookID: String
    public var sequence: Int64
    enum CodingKeys: String, CodingKey { case webhookID = "webhook_id", sequence }
    public init(webhookID: String, sequence: Int64) {
        self.webhookID = webhookID
        self.sequence = sequence
    }
}

/// `webhook.replay_requested`, on `webhook-<id>-deliveries`: every message of the
/// subscription from `from` on is sent again, in order (`ledger admin webhook replay`).
public struct WebhookReplayRequested: DomainEvent {
    public static let type = "webhook.replay_requested"
    public var webhookID: String
    public var from: Int64
    enum CodingKeys: String, CodingKey { case webhookID = "webhook_id", from }
    public init(webhookID: String, from: Int64) {
        self.webhookID = webhookID
        self.from = from
    }
}

/// `webhook.balance_threshold_crossed`, on `webhook-<id>-deliveries`: the available balance
/// of `subject` went below the subscription's `balance.low` threshold (`below`), or back
/// to it or above. The sender watches balances and records each crossing, once per side;
/// a crossing below makes the `balance.low` message, for this subscription only.
public struct WebhookBalanceThresholdCrossed: DomainEvent {
    public static let type = "webhook.balance_threshold_crossed"
    public var webhookID: String
    public var subject: WebhookSubject
    public var threshold: Millicredits
    public var available: Millicredits
    public var below: Bool
    enum CodingKeys: String, CodingKey { case webhookID = "webhook_id", subject, threshold, available, below }
    public init(webhookID: String, subject: WebhookSubject, threshold: Millicredits, available: Millicredits, below: Bool) {
        self.webhookID = webhookID
        self.subject = subject
        self.threshold = threshold
        self.available = available
        self.below = below
    }
}
