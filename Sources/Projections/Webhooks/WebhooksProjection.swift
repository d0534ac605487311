import EventStore
import LedgerDomain
import LedgerJSON
import Postgres

/// Webhook subscriptions (`proj_webhooks`): what each covers, where it sends, and which
/// secret generation signs its messages. Subscription events are rare, so each is
/// written as it is folded.
public struct WebhooksProjection: Projection {
    public init() {}

    public var name: String { "webhooks" }
    public var version: Int { 1 }
    public var tables: [String] { ["subscriptions"] }

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE subscriptions (webhook_id text PRIMARY KEY, project_id text NOT NULL, url text NOT NULL,
                subjects text[] NOT NULL, types text[] NOT NULL, balance_low_threshold numeric,
                active boolean NOT NULL, generation bigint NOT NULL, previous_valid_until_us bigint,
                position bigint NOT NULL, updated_position bigint NOT NULL)
            """,
        ]
    }

    static let folded: Set<String> = [WebhookSubscriptionAdded.type, WebhookSubscriptionDisabled.type, WebhookSecretRotated.type]

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        for event in events where Self.folded.contains(event.type) {
            try folding(event) { try fold(event, context) }
        }
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
