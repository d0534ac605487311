import EventStore
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine

/// One batch of the webhooks fold: subscriptions as they change, and every message the
/// batch's events make, numbered per subject (the pull feed's order) and, for each
/// subscription covering it, per subscription (the delivery order). Both numbers come
/// from the log alone, so a rebuild numbers the same messages the same way.
final class WebhooksBatch {
    private struct Subscription {
        var subjects: Set<WebhookSubject>
        var types: [String]
        var active: Bool
        var lastSequence: Int64
    }

    private var subscriptions: [String: Subscription] = [:]
    /// Subscription ids in a fixed order, so that deliveries are written in one.
    private var subscriptionOrder: [String] = []
    /// How many messages the batch has made about each subject so far: a message's feed
    /// number is the subject's last one in the table plus its rank here, the last ones read
    /// for all the batch's subjects in one statement when the batch is written.
    private var subjectCounts: [WebhookSubject: Int64] = [:]
    private struct PendingMessage { var id: String; var position: Int64; var type: String; var subject: WebhookSubject; var rank: Int64 }
    private var pendingMessages: [PendingMessage] = []
    private var plans: [String: Plan] = [:]
    private var changedPlans = OrderedKeys<String>()
    private var attempts = RowBuffer(columns: 12)

    /// A delivery made in this batch: kept in memory until the batch is written, so that an
    /// attempt, retry or replay later in the same batch changes it (an UPDATE would run
    /// before the row exists). Rows made in earlier batches are updated in the table.
    private struct Delivery {
        var webhookID: String
        var sequence: Int64
        var messageID: String
        var position: Int64
        var status = "pending"
        var attempts: Int64 = 0
        var nextAttempt: Int64
        var lastAttemptPosition: Int64?
    }
    private struct DeliveryKey: Hashable { var webhook: String; var sequence: Int64 }
    private var made: [DeliveryKey: Delivery] = [:]
    private var madeOrder: [DeliveryKey] = []

    /// The types the batch folds: these, the messages' sources, and the subscriptions'
    /// (`WebhooksProjection.relevant`).
    static let deliveryEvents: Set<String> = [WebhookDeliveryAttempted.type, WebhookDeliveryRetried.type, WebhookReplayRequested.type]
    private let context: ProjectionContext

    init(context: ProjectionContext) { self.context = context }

    /// What the batch's events need from the tables, read once.
    func load(_ events: ArraySlice<RecordedEvent>) throws {
        for r in try context.execute("""
            SELECT s.webhook_id, array_to_string(s.subjects, ','), array_to_string(s.types, ','), s.active,
                   (SELECT coalesce(max(d.sequence), 0) FROM deliveries d WHERE d.webhook_id = s.webhook_id)
            FROM subscriptions s ORDER BY s.webhook_id
            """).rows {
            let id = try r.requireString(0)
            subscriptionOrder.append(id)
            subscriptions[id] = Subscription(subjects: Set((r.string(1) ?? "").split(separator: ",").compactMap { WebhookSubject(String($0)) }),
                                             types: (r.string(2) ?? "").split(separator: ",").map(String.init),
                                             active: r.bool(3) ?? false, lastSequence: try r.requireInt64(4))
        }
        // An event that does not decode is left to `fold`, which names it.
        let originals = events.filter { $0.type == AppStoreTransactionRecorded.type }
            .compactMap { try? $0.decode(AppStoreTransactionRecorded.self).originalTransactionID }
        if !originals.isEmpty {
            for r in try context.execute("SELECT original_transaction_id, plan FROM appstore_plans WHERE original_transaction_id = ANY($1::text[])",
                                         [PostgresTextArray(originals)]).rows {
                plans[try r.requireString(0)] = Plan(rawValue: try r.requireString(1))
            }
        }
    }

    func fold(_ event: RecordedEvent) throws {
        switch event.type {
        case WebhookSubscriptionAdded.type:
            let e = try event.decode(WebhookSubscriptionAdded.self)
            subscriptionOrder.append(e.webhookID)
            subscriptions[e.webhookID] = Subscription(subjects: Set(e.subjects), types: e.types, active: true, lastSequence: 0)
        case WebhookSubscriptionDisabled.type:
            subscriptions[try event.decode(WebhookSubscriptionDisabled.self).webhookID]?.active = false
        case WebhookDeliveryAttempted.type:
            try attempted(try event.decode(WebhookDeliveryAttempted.self), event)
            return
        case WebhookDeliveryRetried.type:
            let e = try event.decode(WebhookDeliveryRetried.self)
            let key = DeliveryKey(webhook: e.webhookID, sequence: e.sequence)
            if made[key] != nil {
                made[key]?.status = "pending"
                made[key]?.nextAttempt = event.recordedAt.microseconds
            } else {
                context.enqueue("UPDATE deliveries SET status = 'pending', next_attempt_us = $3 WHERE webhook_id = $1 AND sequence = $2",
                                [e.webhookID, e.sequence, event.recordedAt.microseconds])
            }
            return
        case WebhookReplayRequested.type:
            let e = try event.decode(WebhookReplayRequested.self)
            for key in madeOrder where key.webhook == e.webhookID && key.sequence >= e.from {
                made[key]?.status = "pending"
                made[key]?.nextAttempt = event.recordedAt.microseconds
            }
            context.enqueue("UPDATE deliveries SET status = 'pending', next_attempt_us = $3 WHERE webhook_id = $1 AND sequence >= $2",
                            [e.webhookID, e.from, event.recordedAt.microseconds])
            return
        default:
            break
        }
        guard WebhookMessages.sources.contains(event.type) else { return }
        if event.type == AppStoreTransactionRecorded.type {
            // Decoded once, straight from its text: the fold's most frequent message source.
            let e = try event.decode(AppStoreTransactionRecorded.self)
            let previous = plans[e.originalTransactionID]
            if !e.expiredWhenRecorded {
                plans[e.originalTransactionID] = e.plan
                changedPlans.insert(e.originalTransactionID)
            }
            for derived in WebhookMessages.derive(e, previousPlan: previous) { try record(derived, event, only: nil) }
            return
        }
        let data = try event.data()
        if event.type == WebhookBalanceThresholdCrossed.type {
            let e = try event.decode(WebhookBalanceThresholdCrossed.self)
            context.enqueue("""
                INSERT INTO balance_watch (webhook_id, subject, below, available, position) VALUES ($1, $2, $3, $4::numeric, $5)
                ON CONFLICT (webhook_id, subject) DO UPDATE SET below = excluded.below, available = excluded.available,
                    position = excluded.position
                """, [e.webhookID, e.subject.description, e.below, e.available.description, event.position])
        }
        let only = WebhookMessages.onlySubscription(type: event.type, data: data)
        // A previous plan matters to transactions alone, derived above.
        for derived in try WebhookMessages.derive(type: event.type, stream: event.stream, data: data, previousPlan: nil) {
            try record(derived, event, only: only)
        }
    }

    private func record(_ derived: WebhookMessages.Derived, _ event: RecordedEvent, only: String?) throws {
        var ids: [WebhookSubject: String] = [:]
        for subject in derived.subjects {
            let rank = subjectCounts[subject, default: 0] + 1
            subjectCounts[subject] = rank
            let id = WebhookMessages.messageID(position: event.position, type: derived.type, subject: subject)
            ids[subject] = id
            pendingMessages.append(PendingMessage(id: id, position: event.position, type: derived.type.rawValue, subject: subject, rank: rank))
        }
        // A subscription covering several of the subjects gets the message once, about the
        // first of them it covers.
        for id in subscriptionOrder where only == nil || only == id {
            guard var s = subscriptions[id], s.active, WebhookMessageType.matches(derived.type, filter: s.types),
                  let subject = derived.subjects.first(where: s.subjects.contains), let message = ids[subject] else { continue }
            s.lastSequence += 1
            subscriptions[id] = s
            let key = DeliveryKey(webhook: id, sequence: s.lastSequence)
            madeOrder.append(key)
            made[key] = Delivery(webhookID: id, sequence: s.lastSequence, messageID: message, position: event.position,
                                 nextAttempt: event.recordedAt.microseconds)
        }
    }

    /// The batch's messages, each numbered after its subject's last feed number in the
    /// table: one statement for every subject the batch met, where a statement per subject
    /// and batch made a replay's webhooks fold a round trip per message at worst
    /// (docs/benchmarks.md).
    private func messageRows() throws -> RowBuffer {
        var last: [String: Int64] = [:]
        if !subjectCounts.isEmpty {
            for r in try context.execute("""
                SELECT subject, max(subject_sequence) FROM messages WHERE subject = ANY($1::text[]) GROUP BY subject
                """, [PostgresTextArray(subjectCounts.keys.map(\.description))]).rows {
                last[try r.requireString(0)] = try r.requireInt64(1)
            }
        }
        var rows = RowBuffer(columns: 5)
        for m in pendingMessages {
            let subject = m.subject.description
            rows.append([m.id, m.position, m.type, subject, last[subject, default: 0] + m.rank])
        }
        return rows
    }

    /// An attempt: the delivery's state after it, and the attempt's own row. An attempt
    /// recorded before the digest (with an excerpt of the answer instead) folds with
    /// neither: the excerpt stays out of every table.
    private func attempted(_ e: WebhookDeliveryAttempted, _ event: RecordedEvent) throws {
        // `retrying` leaves the message pending until its next attempt.
        let status = e.outcome == .retrying ? "pending" : e.outcome.rawValue
        let key = DeliveryKey(webhook: e.webhookID, sequence: e.sequence)
        if var d = made[key] {
            d.status = status
            d.attempts = e.attempt
            d.nextAttempt = e.nextAttemptAt?.microseconds ?? d.nextAttempt
            d.lastAttemptPosition = event.position
            made[key] = d
        } else {
            context.enqueue("""
                UPDATE deliveries SET status = $3, attempts = $4, next_attempt_us = coalesce($5, next_attempt_us),
                    last_attempt_position = $6 WHERE webhook_id = $1 AND sequence = $2
                """, [e.webhookID, e.sequence, status, e.attempt, e.nextAttemptAt?.microseconds, event.position])
        }
        attempts.append([e.webhookID, e.sequence, e.attempt, event.position, e.outcome.rawValue, e.status, e.error,
                         e.latencyMilliseconds, e.answerSHA256, e.answerBytes, e.nextAttemptAt?.microseconds, event.recordedAt.iso8601])
    }

    func write() throws {
        try context.copy(into: "messages", columns: ["message_id", "position", "type", "subject", "subject_sequence"], rows: try messageRows())
        var deliveries = RowBuffer(columns: 8)
        for key in madeOrder {
            guard let d = made[key] else { continue }
            deliveries.append([d.webhookID, d.sequence, d.messageID, d.position, d.status, d.attempts, d.nextAttempt, d.lastAttemptPosition])
        }
        try context.copy(into: "deliveries", columns: ["webhook_id", "sequence", "message_id", "position", "status", "attempts",
                                                      "next_attempt_us", "last_attempt_position"], rows: deliveries)
        try context.copy(into: "attempts", columns: ["webhook_id", "sequence", "attempt", "position", "outcome", "status", "error",
                                                    "latency_ms", "answer_sha256", "answer_bytes", "next_attempt_us", "attempted_at"],
                         rows: attempts)
        var plansRows = RowBuffer(columns: 2)
        for original in changedPlans.keys { if let plan = plans[original] { plansRows.append([original, plan.rawValue]) } }
        context.enqueue("""
            INSERT INTO appstore_plans (original_transaction_id, plan) SELECT * FROM unnest($1::text[], $2::text[])
            ON CONFLICT (original_transaction_id) DO UPDATE SET plan = excluded.plan
            """, rows: plansRows)
    }
}
