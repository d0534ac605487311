import EventStore
import LedgerDomain
import LedgerJSON
import Postgres

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
    private var subjectSequences: [WebhookSubject: Int64] = [:]
    private var plans: [String: Plan] = [:]
    private var changedPlans = OrderedKeys<String>()
    private var messages = RowBuffer(columns: 5)
    private var deliveries = RowBuffer(columns: 5)
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
        default:
            break
        }
        guard WebhookMessages.sources.contains(event.type) else { return }
        let data = try event.data()
        var previous: Plan?
        if event.type == AppStoreTransactionRecorded.type {
            let e = try event.decode(AppStoreTransactionRecorded.self)
            previous = plans[e.originalTransactionID]
            if !e.expiredWhenRecorded {
                plans[e.originalTransactionID] = e.plan
                changedPlans.insert(e.originalTransactionID)
            }
        }
        for derived in try WebhookMessages.derive(type: event.type, stream: event.stream, data: data, previousPlan: previous) {
            try record(derived, event)
        }
    }

    private func record(_ derived: WebhookMessages.Derived, _ event: RecordedEvent) throws {
        var ids: [WebhookSubject: String] = [:]
        for subject in derived.subjects {
            let sequence = try nextSubjectSequence(subject)
            let id = WebhookMessages.messageID(position: event.position, type: derived.type, subject: subject)
            ids[subject] = id
            messages.append([id, event.position, derived.type.rawValue, subject.description, sequence])
        }
        // A subscription covering several of the subjects gets the message once, about the
        // first of them it covers.
        for id in subscriptionOrder {
            guard var s = subscriptions[id], s.active, WebhookMessageType.matches(derived.type, filter: s.types),
                  let subject = derived.subjects.first(where: s.subjects.contains), let message = ids[subject] else { continue }
            s.lastSequence += 1
            subscriptions[id] = s
            deliveries.append([id, s.lastSequence, message, event.position, event.recordedAt.microseconds])
        }
    }

    /// The subject's next feed number: its last one in the table, read the first time the
    /// batch meets the subject, then counted in memory.
    private func nextSubjectSequence(_ subject: WebhookSubject) throws -> Int64 {
        let last = try subjectSequences[subject] ?? context.execute(
            "SELECT coalesce(max(subject_sequence), 0) FROM messages WHERE subject = $1", [subject.description])[0].requireInt64(0)
        subjectSequences[subject] = last + 1
        return last + 1
    }

    func write() throws {
        try context.copy(into: "messages", columns: ["message_id", "position", "type", "subject", "subject_sequence"], rows: messages)
        try context.copy(into: "deliveries", columns: ["webhook_id", "sequence", "message_id", "position", "next_attempt_us"], rows: deliveries)
        var plansRows = RowBuffer(columns: 2)
        for original in changedPlans.keys { if let plan = plans[original] { plansRows.append([original, plan.rawValue]) } }
        context.enqueue("""
            INSERT INTO appstore_plans (original_transaction_id, plan) SELECT * FROM unnest($1::text[], $2::text[])
            ON CONFLICT (original_transaction_id) DO UPDATE SET plan = excluded.plan
            """, rows: plansRows)
    }
}
