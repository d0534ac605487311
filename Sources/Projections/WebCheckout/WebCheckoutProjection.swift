import EventStore
import LedgerDomain
import ProjectionEngine

/// The payment processor's facts of each app (the projection `web`, schema `proj_web`),
/// kept whole, one row per Stripe event, with the Stripe ids each names (`links`) and the
/// user it names, if any. What a user holds is folded from them when asked
/// (`WebCheckoutReadModel`, `WebHoldings.fold`): Stripe promises no order, so the state
/// depends on the set of facts, not on the order the projector met them, and nothing
/// here has to be merged in arrival order.
public struct WebCheckoutProjection: Projection {
    public let name = "web"
    public let version = 1
    public let tables = ["facts"]

    public init() {}

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE facts (app_id text NOT NULL, event_id text NOT NULL, position bigint NOT NULL,
                created_us bigint NOT NULL, event_type text NOT NULL, kind text NOT NULL, user_id text,
                links text[] NOT NULL, event text NOT NULL, PRIMARY KEY (app_id, event_id))
            """,
            "CREATE INDEX facts_user_idx ON facts (app_id, user_id) WHERE user_id IS NOT NULL",
            "CREATE INDEX facts_links_idx ON facts USING gin (links)",
            "CREATE INDEX facts_unattributed_idx ON facts (app_id, position) WHERE user_id IS NULL AND kind <> 'seen'",
        ]
    }

    public var eventTypes: Set<String>? { [StripeEventRecorded.type] }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        var rows = RowBuffer(columns: 9)
        for event in events where event.type == StripeEventRecorded.type {
            try folding(event) {
                let e = try event.decode(StripeEventRecorded.self)
                rows.append([e.appID, e.eventID, event.position, e.created.microseconds, e.eventType, e.fact.kind, e.userID,
                             Self.links(e.fact).joined(separator: " "), event.dataText])
            }
        }
        guard rows.count > 0 else { return }
        // The same event id is recorded once by the log's idempotency key; a replay writes
        // the same rows again onto empty tables.
        context.enqueue("""
            INSERT INTO facts (app_id, event_id, position, created_us, event_type, kind, user_id, links, event)
            SELECT a, e, p, c, t, k, u, string_to_array(l, ' '), d
            FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                AS x (a, e, p, c, t, k, u, l, d)
            ON CONFLICT (app_id, event_id) DO NOTHING
            """, rows: rows)
    }

    /// The Stripe ids a fact names, in the narrow alphabet the column holds (no spaces).
    static func links(_ fact: StripeFact) -> [String] { fact.links.map(ExternalID.key) }
}
