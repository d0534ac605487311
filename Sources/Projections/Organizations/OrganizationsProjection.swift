import EventStore
import LedgerDomain
import LedgerJSON
import ProjectionEngine

/// Organizations, their administrators, delegation, education eligibility, plan changes
/// by source, and their App Store subscriptions (rules O, T, N).
///
/// It stores facts with their instants and never resolves them against a clock: which
/// plan is in force, and which change is still pending, is decided by the reads at the
/// time of the request (`PlanTimeline`).
public struct OrganizationsProjection: Projection {
    public let name = "organizations"
    /// 3: `appstore_changes` keeps each transaction's ownership, offer and `via`, price
    /// increases and failed renewal extensions (docs/appstore.md, "Lifecycle").
    /// 4: refund requests and their answers (`appstore_consumption`), and when each
    /// organization was created (docs/appstore.md, "Refund requests").
    public let version = 4
    public let tables = ["orgs", "org_admins", "org_plan_changes", "org_audit", "appstore_subscriptions",
                         "appstore_changes", "appstore_acknowledged", "appstore_consumption"]

    public init() {}

    public var eventTypes: Set<String>? { OrganizationsBatch.types }

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE orgs (org_id text PRIMARY KEY, name text NOT NULL, account_token text UNIQUE,
                reseller_id text, staff_education boolean, auto_education_domain text, position bigint NOT NULL,
                created_us bigint)
            """,
            "CREATE TABLE org_admins (org_id text NOT NULL, person_id text NOT NULL, PRIMARY KEY (org_id, person_id))",
            """
            CREATE TABLE org_plan_changes (org_id text NOT NULL, source text NOT NULL, at_us bigint NOT NULL,
                position bigint NOT NULL, plan text, PRIMARY KEY (org_id, source, position))
            """,
            """
            CREATE TABLE org_audit (org_id text NOT NULL, position bigint NOT NULL, type text NOT NULL, actor text NOT NULL,
                detail text NOT NULL, occurred_at timestamptz NOT NULL, PRIMARY KEY (org_id, position))
            """,
            """
            CREATE TABLE appstore_subscriptions (original_transaction_id text PRIMARY KEY, org_id text NOT NULL,
                holder_person_id text, environment text NOT NULL, position bigint NOT NULL)
            """,
            "CREATE INDEX appstore_subscriptions_org_idx ON appstore_subscriptions (org_id)",
            """
            CREATE TABLE appstore_changes (original_transaction_id text NOT NULL, position bigint NOT NULL,
                kind text NOT NULL, transaction_id text, product_id text, plan text, purchase_us bigint,
                expires_us bigint, signed_us bigint NOT NULL, reason text, counts_for_plan boolean NOT NULL, revoked_us bigint,
                ownership text, offer_type bigint, offer_identifier text, offer_discount_type text,
                PRIMARY KEY (original_transaction_id, position))
            """,
            """
            CREATE TABLE appstore_acknowledged (notification_uuid text PRIMARY KEY, notification_type text NOT NULL,
                subtype text, reason text NOT NULL, position bigint NOT NULL)
            """,
            // A request and, once answered, its answer. The worker that answers looks for the
            // unanswered ones alone, through the partial index, however many were answered.
            """
            CREATE TABLE appstore_consumption (notification_uuid text PRIMARY KEY, original_transaction_id text NOT NULL,
                org_id text, transaction_id text NOT NULL, product_id text NOT NULL, bundle_id text, environment text NOT NULL,
                signed_us bigint NOT NULL, respond_by_us bigint NOT NULL, position bigint NOT NULL,
                outcome text, reason text, detail text, information text, answered_us bigint, answered_position bigint)
            """,
            "CREATE INDEX appstore_consumption_unanswered_idx ON appstore_consumption (respond_by_us) WHERE outcome IS NULL",
            "CREATE INDEX appstore_consumption_subscription_idx ON appstore_consumption (original_transaction_id)",
        ]
    }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        let batch = OrganizationsBatch()
        for event in events {
            try folding(event) { try batch.fold(event) }
        }
        try batch.write(to: context)
    }
}
