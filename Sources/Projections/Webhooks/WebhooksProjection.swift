import EventStore
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine

/// Webhook subscriptions and their messages (`proj_webhooks`): what each subscription
/// covers, where it sends, which secret generation signs; every message the log's events
/// make, numbered per subject (the pull feed) and, for each subscription covering it, per
/// subscription (the deliveries, in order). Subscription events are rare, so each is
/// written as it is folded; messages are gathered per batch (`WebhooksBatch`).
public struct WebhooksProjection: Projection {
    public init() {}

    public var name: String { "webhooks" }
    /// 6: an attempt keeps its answer's SHA-256 and length, no longer an excerpt of it.
    public var version: Int { 6 }

    /// The sender's look for each subscription's next pending message; without it the
    /// look would step over every delivered one. Reads only: the fold never uses it.
    public var deferredIndexesSQL: [String] {
        ["CREATE INDEX deliveries_pending_idx ON deliveries (webhook_id, sequence) WHERE status = 'pending'"]
    }
    public var tables: [String] { ["subscriptions", "messages", "deliveries", "attempts", "appstore_plans", "balance_watch"] }

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE subscriptions (webhook_id text PRIMARY KEY, project_id text NOT NULL, url text NOT NULL,
                subjects text[] NOT NULL, types text[] NOT NULL, balance_low_threshold numeric,
                active boolean NOT NULL, generation bigint NOT NULL, previous_valid_until_us bigint,
                position bigint NOT NULL, updated_position bigint NOT NULL)
            """,
            // The fold reads a subject's last number through the unique constraint, so it
            // is not deferred.
            """
            CREATE TABLE messages (message_id text PRIMARY KEY, position bigint NOT NULL, type text NOT NULL,
                subject text NOT NULL, subject_sequence bigint NOT NULL, UNIQUE (subject, subject_sequence))
            """,
            """
            CREATE TABLE deliveries (webhook_id text NOT NULL, sequence bigint NOT NULL, message_id text NOT NULL,
                position bigint NOT NULL, status text NOT NULL DEFAULT 'pending', attempts integer NOT NULL DEFAULT 0,
                next_attempt_us bigint NOT NULL, last_attempt_position bigint, PRIMARY KEY (webhook_id, sequence))
            """,
            """
            CREATE TABLE attempts (webhook_id text NOT NULL, sequence bigint NOT NULL, attempt bigint NOT NULL,
                position bigint NOT NULL, outcome text NOT NULL, status bigint, error text, latency_ms bigint NOT NULL,
                answer_sha256 text, answer_bytes bigint, next_attempt_us bigint, attempted_at timestamptz NOT NULL,
                PRIMARY KEY (webhook_id, sequence, attempt))
            """,
            "CREATE TABLE appstore_plans (original_transaction_id text PRIMARY KEY, plan text NOT NULL)",
            """
            CREATE TABLE balance_watch (webhook_id text NOT NULL, subject text NOT NULL, below boolean NOT NULL,
                available numeric NOT NULL, position bigint NOT NULL, PRIMARY KEY (webhook_id, subject))
            """,
        ]
    }

    /// Folded here, one statement each; the batch folds the rest (messages, deliveries).
    static let folded: Set<String> = [WebhookSubscriptionAdded.type, WebhookSubscriptionDisabled.type, WebhookSecretRotated.type]

    /// Every type this projection folds, in one set: a batch is filtered by it, one
    /// lookup per event (a replay's million events, nine in ten of none of them).
    static let relevant: Set<String> = folded.union(WebhookMessages.sources).union(WebhooksBatch.deliveryEvents)
        .union([WebhookSubscriptionAdded.type, WebhookSubscriptionDisabled.type])

    public var eventTypes: Set<String>? { Self.relevant }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        let relevant = events.filter { Self.relevant.contains($0.type) }
        guard !relevant.isEmpty else { return }
        let batch = WebhooksBatch(context: context)
        try batch.load(relevant[...])
        for event in relevant {
            try folding(event) {
                if Self.folded.contains(event.type) { try fold(event, context) }
                try batch.fold(event)
            }
        }
        try batch.write()
    }

    private func fold(_ event: RecordedEvent, _ context: ProjectionContext) throws {
        let p = event.position
        switch event.type {
        case WebhookSubscriptionAdded.type:
            let e = try event.decode(WebhookSubscriptionAdded.self)
            context.enqueue("""
                INSERT INTO subscriptions (webhook_id, project_id, url, subjects, types, balance_low_threshold, active,
                    generation, position, updated_position)
                VALUES ($1, $2, $3, $4::text[], $5::text[], $6::numeric, true, 1, $7, $7)
                """, [e.webhookID, e.projectID, e.url, PostgresTextArray(e.subjects.map(\.description)), PostgresTextArray(e.types),
                      e.balanceLowThreshold?.description, p])
        case WebhookSubscriptionDisabled.type:
            let e = try event.decode(WebhookSubscriptionDisabled.self)
            context.enqueue("UPDATE subscriptions SET active = false, updated_position = $2 WHERE webhook_id = $1", [e.webhookID, p])
        default:
            let e = try event.decode(WebhookSecretRotated.self)
            context.enqueue("""
                UPDATE subscriptions SET generation = $2, previous_valid_until_us = $3, updated_position = $4 WHERE webhook_id = $1
                """, [e.webhookID, e.generation, e.previousValidUntil.microseconds, p])
        }
    }
}
