/// Decides what a delivery attempt records: its outcome, when the next attempt is (an
/// exponential backoff with jitter, for up to three days from the message), and the U4
/// usage it bills to the subscription's project.
public enum WebhookDeliveryDecider {
    public static func stream(_ webhook: String) -> String { "webhook-\(webhook)-deliveries" }

    /// The first retry waits this long; each one after waits twice the one before...
    public static let initialDelay: Int64 = 10 * 1_000_000
    /// ... but never more than an hour ...
    public static let maximumDelay: Int64 = 3_600 * 1_000_000
    /// ... and a message not delivered three days after it was made is dead.
    public static let giveUpAfter: Int64 = 3 * 24 * 3_600 * 1_000_000

    /// One attempt's result, as the dispatcher saw it.
    public struct Attempt: Sendable, Hashable {
        public var webhookID: String
        public var projectID: String
        public var sequence: Int64
        public var messageID: String
        /// 1 for the first attempt.
        public var number: Int64
        /// When the message was made (its event's recording time).
        public var madeAt: Timestamp
        public var status: Int64?
        public var error: String?
        public var latencyMilliseconds: Int64
        /// The SHA-256 of the answer's body (lowercase hex) and its length, when there was
        /// an answer.
        public var answerSHA256: String?
        public var answerBytes: Int64?

        public init(webhookID: String, projectID: String, sequence: Int64, messageID: String, number: Int64, madeAt: Timestamp,
                    status: Int64?, error: String?, latencyMilliseconds: Int64, answerSHA256: String?, answerBytes: Int64?) {
            self.webhookID = webhookID
            self.projectID = projectID
            self.sequence = sequence
            self.messageID = messageID
            self.number = number
            self.madeAt = madeAt
            self.status = status
            self.error = error
            self.latencyMilliseconds = latencyMilliseconds
            self.answerSHA256 = answerSHA256
            self.answerBytes = answerBytes
        }
    }

    /// The delay before attempt `number + 1`, `jitter` (0 ..< 1, from the dispatcher's
    /// random source) spreading it over ±20 % so that retries of many messages do not
    /// arrive together.
    public static func delay(after number: Int64, jitter: Double) -> Int64 {
        let doublings = min(max(number - 1, 0), 20)
        let base = min(initialDelay << doublings, maximumDelay)
        return Int64(Double(base) * (0.8 + 0.4 * min(max(jitter, 0), 0.999_999)))
    }

    /// The attempt event, and the usage of the attempt when the project's month still
    /// takes usage (a month already closed bills nothing more: the attempt is still
    /// recorded).
    public static func record(_ attempt: Attempt, now: Timestamp, jitter: Double, usage: UsageState) -> Decision {
        let delivered = attempt.status.map { (200...299).contains($0) } ?? false
        var outcome = WebhookDeliveryAttempted.Outcome.delivered
        var next: Timestamp?
        if !delivered {
            let at = now.microseconds + delay(after: attempt.number, jitter: jitter)
            if at - attempt.madeAt.microseconds > giveUpAfter {
                outcome = .dead
            } else {
                outcome = .retrying
                next = Timestamp(microseconds: at)
            }
        }
        // The answer is recorded by its digest and length, never its bytes: the log is
        // permanent and what a receiver says is not ours to keep (docs/webhooks.md).
        let event = WebhookDeliveryAttempted(webhookID: attempt.webhookID, sequence: attempt.sequence, messageID: attempt.messageID,
                                             attempt: attempt.number, outcome: outcome, status: attempt.status, error: attempt.error,
                                             latencyMilliseconds: attempt.latencyMilliseconds, answerSHA256: attempt.answerSHA256,
                                             answerBytes: attempt.answerBytes, nextAttemptAt: next)
        let key = "webhook-attempt:\(attempt.webhookID):\(attempt.sequence):\(attempt.number)"
        var events = [PendingEvent(event, on: stream(attempt.webhookID), idempotencyKey: key)]
        let measurement = UsageDecider.Measurement(id: "webhook-\(attempt.webhookID)-\(attempt.sequence)-\(attempt.number)",
                                                   projectID: attempt.projectID, meter: Meter.webhookDeliveries.rawValue,
                                                   quantity: 1, occurredAt: now)
        if let billed = try? UsageDecider.decide([measurement], state: usage, now: now) { events += billed.events }
        return Decision(events)
    }

    /// A dead message sent again: `sequence` must be dead (checked against the projection).
    public static func retry(webhook: String, sequence: Int64, status: String?) throws(Refusal) -> Decision {
        guard let status else { throw Refusal(.notFound, "webhook \(webhook) has no message \(sequence)") }
        guard status == WebhookDeliveryAttempted.Outcome.dead.rawValue else {
            throw Refusal(.outOfRange, "message \(sequence) of webhook \(webhook) is \(status), not dead: only a dead message is retried")
        }
        return Decision(PendingEvent(WebhookDeliveryRetried(webhookID: webhook, sequence: sequence), on: stream(webhook)))
    }

    /// Every message from `from` on sent again; `last` is the subscription's last number.
    public static func replay(webhook: String, from: Int64, last: Int64?, active: Bool) throws(Refusal) -> Decision {
        guard let last else { throw Refusal(.notFound, "webhook \(webhook) does not exist") }
        guard active else { throw Refusal(.alreadyDisabled, "webhook \(webhook) is disabled") }
        guard (1...max(last, 1)).contains(from), last > 0 else {
            throw Refusal(.outOfRange, "webhook \(webhook) has messages 1 to \(last); --from \(from) is not one of them")
        }
        return Decision(PendingEvent(WebhookReplayRequested(webhookID: webhook, from: from), on: stream(webhook)))
    }

    /// A crossing of a subscription's `balance.low` threshold, when `available` is on the
    /// other side of it from where the subscription last saw the subject (`last`: its side
    /// and the position of that crossing; nil before the first look, as if above); nil
    /// when nothing crossed. Its key names the crossing it follows, so that a look
    /// repeated before the first one is folded (an unknown outcome, a lagging projection)
    /// records it once.
    public static func watch(webhook: String, subject: WebhookSubject, threshold: Millicredits, available: Millicredits,
                             last: (below: Bool, position: Int64)?) -> Decision? {
        let below = available < threshold
        guard below != (last?.below ?? false) else { return nil }
        let event = WebhookBalanceThresholdCrossed(webhookID: webhook, subject: subject, threshold: threshold, available: available,
                                                   below: below)
        let key = "balance-crossing:\(webhook):\(subject):after-\(last?.position ?? 0)"
        return Decision(PendingEvent(event, on: stream(webhook), idempotencyKey: key))
    }
}
