import EventStore
import LedgerDomain
import LedgerJSON
import ProjectionEngine

/// The IAP catalog (the projection `iap`, a name kept because it is its schema's,
/// `proj_iap`): apps and their publishable keys, products and StoreKit prices,
/// checkout, the active campaigns, users' purchase histories and offer impressions.
///
/// Configuration is kept as the event's own JSON text (the catalog's readers decode it
/// with the domain types), so a new optional field needs no new column.
public struct CatalogProjection: Projection {
    public let name = "iap"
    public let version = 1
    public let tables = ["apps", "app_keys", "products", "checkout", "campaigns", "purchases", "impressions"]

    public init() {}

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE apps (app_id text PRIMARY KEY, name text NOT NULL, bundle_id text NOT NULL,
                enabled boolean NOT NULL, position bigint NOT NULL)
            """,
            """
            CREATE TABLE app_keys (key_id text PRIMARY KEY, app_id text NOT NULL, mode text NOT NULL,
                sha256 text NOT NULL UNIQUE, prefix text NOT NULL, revoked boolean NOT NULL)
            """,
            """
            CREATE TABLE products (app_id text NOT NULL, product_id text NOT NULL, config text NOT NULL,
                storekit_price text, first_position bigint NOT NULL, removed boolean NOT NULL,
                PRIMARY KEY (app_id, product_id))
            """,
            "CREATE TABLE checkout (app_id text PRIMARY KEY, config text NOT NULL)",
            """
            CREATE TABLE campaigns (app_id text NOT NULL, kind text NOT NULL, campaign_id text NOT NULL,
                config text NOT NULL, position bigint NOT NULL, PRIMARY KEY (app_id, kind))
            """,
            """
            CREATE TABLE purchases (app_id text NOT NULL, user_id text NOT NULL, source text NOT NULL,
                purchase_id text NOT NULL, original_id text NOT NULL, product_id text NOT NULL,
                purchased_us bigint NOT NULL, expires_us bigint, revoked_us bigint, trial boolean NOT NULL,
                position bigint NOT NULL, PRIMARY KEY (app_id, source, purchase_id))
            """,
            "CREATE INDEX purchases_user_idx ON purchases (app_id, user_id)",
            """
            CREATE TABLE impressions (app_id text NOT NULL, campaign_id text NOT NULL, variant_id bigint,
                count bigint NOT NULL)
            """,
            "CREATE UNIQUE INDEX impressions_key ON impressions (app_id, campaign_id, (coalesce(variant_id, -1)))",
        ]
    }

    public var eventTypes: Set<String>? { CatalogBatch.types }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        let batch = CatalogBatch()
        for event in events where CatalogBatch.folds(event.type) {
            try folding(event) { try batch.decode(event) }
        }
        guard !batch.isEmpty else { return }
        try batch.load(from: context)
        try batch.apply()
        try batch.write(to: context)
    }
}
