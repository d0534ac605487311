import Foundation

/// The process environment, read through a catalogue of the settings the service knows,
/// so that `ledger --help` lists every one of them with its default.
public struct LedgerEnvironment: Sendable {
    public var values: [String: String]

    public init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    /// A configured value, or the setting's default, or nil.
    public func string(_ setting: Setting) -> String? {
        if let v = values[setting.name], !v.isEmpty { return v }
        return setting.defaultValue
    }

    public func int(_ setting: Setting) throws -> Int {
        guard let text = string(setting) else { throw ConfigurationError(setting: setting, problem: "is not set") }
        guard let n = Int(text) else { throw ConfigurationError(setting: setting, problem: "must be an integer, got \(text)") }
        return n
    }

    /// An integer of at least 1: a count of threads, requests or seconds.
    public func positiveInt(_ setting: Setting) throws -> Int {
        let n = try int(setting)
        guard n >= 1 else { throw ConfigurationError(setting: setting, problem: "must be at least 1, got \(n)") }
        return n
    }

    /// A number of seconds above zero.
    public func positiveSeconds(_ setting: Setting) throws -> Double {
        let n = try double(setting)
        guard n > 0 else { throw ConfigurationError(setting: setting, problem: "must be above 0, got \(n)") }
        return n
    }

    public func double(_ setting: Setting) throws -> Double {
        guard let text = string(setting) else { throw ConfigurationError(setting: setting, problem: "is not set") }
        guard let n = Double(text), n.isFinite else { throw ConfigurationError(setting: setting, problem: "must be a number, got \(text)") }
        return n
    }

    public func require(_ setting: Setting) throws -> String {
        guard let v = string(setting) else { throw ConfigurationError(setting: setting, problem: "is not set") }
        return v
    }

    /// One environment variable the service reads.
    public struct Setting: Sendable, Hashable {
        public var name: String
        public var defaultValue: String?
        public var help: String
    }

    /// A setting that is missing or malformed.
    public struct ConfigurationError: Error, CustomStringConvertible {
        public var setting: Setting
        public var problem: String
        public var description: String { "\(setting.name) \(problem)" }
    }
}

extension LedgerEnvironment.Setting {
    public static let databaseURL = Self(name: "DATABASE_URL", defaultValue: nil,
        help: "PostgreSQL URL of the process's own login: the API's (ledger_service), the console's (ledger_console), the projector's (ledger_projector) or an operator's (ledger_operator, for `ledger admin` and the other commands). `ledger dev` creates a local cluster and a login of each when it is unset.")
    public static let directDatabaseURL = Self(name: "LEDGER_DIRECT_DATABASE_URL", defaultValue: nil,
        help: "PostgreSQL itself, with DATABASE_URL's login, when DATABASE_URL names a pooler in transaction mode (PgBouncer): the connections that hold session state use it (LISTEN, session advisory locks, the appender, the projector's own, rebuilds, migrations) and the pooled ones then send no named prepared statements (docs/scaling.md, \"PgBouncer\"). Default: DATABASE_URL for both. The other URL settings always name PostgreSQL itself.")
    public static let projectorDatabaseURL = Self(name: "LEDGER_PROJECTOR_DATABASE_URL", defaultValue: nil,
        help: "URL of a login in ledger_projector, the role that alone writes the projections: `ledger project` and `ledger replay` use it (default: DATABASE_URL, and for what holds session state, the projector's engine and `ledger replay`, LEDGER_DIRECT_DATABASE_URL when set: docs/scaling.md), and `ledger serve` gives it to the console's rebuilds (none without it). docs/security.md.")
    public static let migrationDatabaseURL = Self(name: "LEDGER_MIGRATION_DATABASE_URL", defaultValue: nil,
        help: "URL of a role that owns the schema, used by `ledger migrate` and by `ledger archive` to detach the archived partitions (default: LEDGER_DIRECT_DATABASE_URL, else DATABASE_URL).")
    public static let archiveDirectory = Self(name: "LEDGER_ARCHIVE_DIR", defaultValue: nil,
        help: "Where `ledger archive` wrote its files: the projector reads them to rebuild a projection once old partitions are archived.")
    public static let consoleAddress = Self(name: "LEDGER_CONSOLE_ADDRESS", defaultValue: nil,
        help: "HOST:PORT of `ledger console`'s listener (never the API's port). Default 127.0.0.1:8081; `ledger dev` takes `off` to run no console.")
    public static let consoleSecret = Self(name: "LEDGER_CONSOLE_SECRET", defaultValue: nil,
        help: "Key (at least 32 characters) the console derives its forms' CSRF tokens from (the sign-in form's and each session's). It signs no cookie: a session cookie is a random token whose session is a row, so a new key only makes open forms reload. Required in production when the console runs. Elsewhere a random one per process; `ledger dev` keeps one in LEDGER_DATA_DIR.")
    public static let consoleURL = Self(name: "LEDGER_CONSOLE_URL", defaultValue: nil,
        help: "The URL operators open the console at, when it is not http://LEDGER_CONSOLE_ADDRESS (a proxy in front, a name): the console answers only requests whose Host is its own address or this URL's host (DNS rebinding), and over https its cookies take the __Host- prefix.")
    public static let consoleIdleMinutes = Self(name: "LEDGER_CONSOLE_IDLE_MINUTES", defaultValue: "30",
        help: "Minutes without a request after which a console session ends.")
    public static let consoleSessionHours = Self(name: "LEDGER_CONSOLE_SESSION_HOURS", defaultValue: "8",
        help: "Hours a console session lasts from its sign-in, however active.")
    public static let metricsAddress = Self(name: "LEDGER_METRICS_ADDRESS", defaultValue: "127.0.0.1:9464",
        help: "HOST:PORT of the operations listener (never the public port), or `off`: /metrics and /readyz with the log's positions and the replicas, for operators and Prometheus. The public port's /readyz says only ready or not, and why in words (docs/security.md).")
    public static let trustedProxies = Self(name: "LEDGER_TRUSTED_PROXIES", defaultValue: nil,
        help: "Comma-separated addresses or CIDR blocks of the reverse proxies in front of the API and the console: their X-Forwarded-For names the client (for the per-address limits and the logs). Nobody else's is believed.")
    public static let host = Self(name: "LEDGER_HOST", defaultValue: "127.0.0.1", help: "Address the HTTP server binds.")
    public static let port = Self(name: "LEDGER_PORT", defaultValue: "8080", help: "Port the HTTP server listens on.")
    public static let httpThreads = Self(name: "LEDGER_HTTP_THREADS", defaultValue: "16",
        help: "Request threads of the HTTP server (each may block on the database).")
    public static let networkThreads = Self(name: "LEDGER_HTTP_NETWORK_THREADS", defaultValue: "2",
        help: "libmicrohttpd event loops: they only read and write bytes and answer /healthz, /readyz and /metrics.")
    public static let maxQueuedRequests = Self(name: "LEDGER_MAX_QUEUED_REQUESTS", defaultValue: "1024",
        help: "Complete requests that may wait for a request thread; more answer 503 overloaded.")
    public static let maxRequestsPerClient = Self(name: "LEDGER_MAX_REQUESTS_PER_CLIENT", defaultValue: "32",
        help: "Requests one credential (or address without one) may have in the server at once, waits included; more answer 429.")
    public static let requestHeadTimeout = Self(name: "LEDGER_REQUEST_HEAD_TIMEOUT", defaultValue: "10",
        help: "Seconds from a request's first byte to the end of its head, however steadily it trickles; then 408 and close.")
    public static let requestBodyTimeout = Self(name: "LEDGER_REQUEST_BODY_TIMEOUT", defaultValue: "30",
        help: "Seconds from the end of a request's head to the end of its body; then 408 and close.")
    public static let maxBodyBytes = Self(name: "LEDGER_MAX_BODY_BYTES", defaultValue: "1048576",
        help: "Largest request body accepted; larger answers 413.")
    public static let maxHeaderBytes = Self(name: "LEDGER_MAX_HEADER_BYTES", defaultValue: "16384",
        help: "Largest request line plus headers accepted; larger answers 431.")
    public static let connectionTimeout = Self(name: "LEDGER_CONNECTION_TIMEOUT", defaultValue: "30",
        help: "Seconds a connection may stay idle or stall mid-request before it is closed (408 when a request was started).")
    public static let maxConnections = Self(name: "LEDGER_MAX_CONNECTIONS", defaultValue: "1024",
        help: "Concurrent HTTP connections accepted; more are refused.")
    public static let maxConnectionsPerAddress = Self(name: "LEDGER_MAX_CONNECTIONS_PER_ADDRESS", defaultValue: "64",
        help: "Concurrent HTTP connections one client address (an IPv6 /64) may hold; more, or an eighth of it once the server is three quarters full, are refused. Trusted proxies are not limited.")
    public static let poolSize = Self(name: "LEDGER_DB_POOL_SIZE", defaultValue: "16",
        help: "Database connections of the API process.")
    public static let logLevel = Self(name: "LEDGER_LOG_LEVEL", defaultValue: "info", help: "debug, info, warning or error.")
    public static let readyMaxLag = Self(name: "LEDGER_READY_MAX_LAG", defaultValue: "10000",
        help: "Projector lag, in events, above which /readyz answers 503.")
    public static let webhookListenSecret = Self(name: "LEDGER_WEBHOOK_LISTEN_SECRET", defaultValue: nil,
        help: "The signing secret `ledger webhook listen` verifies deliveries with, when --secret is not given (docs/webhooks.md).")
    public static let admissionLag = Self(name: "LEDGER_ADMISSION_LAG_MS", defaultValue: "50",
        help: "Milliseconds within which the billing projection must be able to fold a usage batch for it to be admitted: its lag, and the events ahead of the batch and its own at the rate it folds, stay within them; otherwise the batch is parked (then released as it folds, or refused with 503 projection_behind and Retry-After). What bounds the time a metering service waits to read its write back (docs/architecture.md, \"Admission\"); 0 turns admission off. Notifications, Stripe events and operators' acts are never parked.")
    public static let admissionWait = Self(name: "LEDGER_ADMISSION_WAIT_MS", defaultValue: "2000",
        help: "Milliseconds a parked usage batch waits for the billing projection before it is refused (503 projection_behind, Retry-After; nothing recorded, the same batch may be sent again).")
    public static let readDatabaseURLs = Self(name: "LEDGER_READ_DATABASE_URLS", defaultValue: nil,
        help: "Hot standbys of the database, comma-separated URLs, that the read endpoints use while they keep up (docs/scaling.md); appends, the projector and every decision stay on DATABASE_URL.")
    public static let readMaxLagEvents = Self(name: "LEDGER_READ_MAX_LAG_EVENTS", defaultValue: "10000",
        help: "Positions a read replica may be behind the primary and still serve reads.")
    public static let readMaxLagSeconds = Self(name: "LEDGER_READ_MAX_LAG_SECONDS", defaultValue: "5",
        help: "Seconds of WAL a read replica may have yet to replay and still serve reads.")
    public static let pollInterval = Self(name: "LEDGER_PROJECTOR_POLL_INTERVAL", defaultValue: "1",
        help: "Seconds the projector waits for a NOTIFY before it polls the log anyway.")
    public static let shutdownGrace = Self(name: "LEDGER_SHUTDOWN_GRACE", defaultValue: "15",
        help: "Seconds a SIGTERM waits for requests in flight before the server stops.")
    public static let dataDirectory = Self(name: "LEDGER_DATA_DIR", defaultValue: ".ledger",
        help: "Where `ledger dev` keeps its PostgreSQL cluster and demo.json. Unset: `ledger dev` uses `.ledger` at the clone's root, and the commands the nearest `.ledger/demo.json` in the working directory or a folder above it, up to the clone's root (outside a clone, ./.ledger).")
    public static let devPostgresPort = Self(name: "LEDGER_DEV_POSTGRES_PORT", defaultValue: "54329",
        help: "Port of the PostgreSQL cluster `ledger dev` creates under LEDGER_DATA_DIR. Unset: 54329, or when that is taken (another `ledger dev`) a free port above it, remembered in LEDGER_DATA_DIR/postgres-port for the next start. Set and taken: `ledger dev` refuses to start.")
    public static let sqlDirectory = Self(name: "LEDGER_SQL_DIR", defaultValue: nil,
        help: "Folder of the numbered migrations. Unset: the `sql` folder of the working directory or a folder above it (up to the clone's root), else beside or above the executable (however it was found: PATH, a link), else its ../share/ledger/sql.")
    public static let cursorSecret = Self(name: "LEDGER_CURSOR_SECRET", defaultValue: nil,
        help: "Secret (at least 32 characters) that signs journal cursors; required in production. Elsewhere a random one is made per process (cursors then do not survive a restart); `ledger dev` keeps one in LEDGER_DATA_DIR.")
    public static let webhookKey = Self(name: "LEDGER_WEBHOOK_KEY", defaultValue: nil,
        help: "Key (at least 32 characters) every webhook subscription's signing secret is derived from; required to add or rotate one. `ledger dev` keeps one in LEDGER_DATA_DIR, which commands find when this is unset.")
    public static let operatorName = Self(name: "LEDGER_OPERATOR", defaultValue: nil,
        help: "When set, the operator `ledger admin …` must be running as: acts are recorded under the database login (DATABASE_URL's user), and a different name here is refused (operator_not_login).")
    public static let sessionSecret = Self(name: "LEDGER_SESSION_SECRET", defaultValue: nil,
        help: "Key (at least 32 characters) the identity service signs session cookies with (JWT, HS256); the App Store offer and transactions need it. `ledger dev` keeps one in LEDGER_DATA_DIR.")
    public static let publicOrigin = Self(name: "LEDGER_PUBLIC_ORIGIN", defaultValue: "https://app.screenrig.ai",
        help: "The origin the app is served from: cookie-authenticated writes must come from it (T2).")
    public static let appStoreBundleID = Self(name: "LEDGER_APPSTORE_BUNDLE_ID", defaultValue: "ai.screenrig.app",
        help: "The app's bundle ID, checked in every App Store payload (T3).")
    public static let appStoreProducts = Self(name: "LEDGER_APPSTORE_PRODUCTS",
        defaultValue: "plus=ai.screenrig.plus.monthly,education=ai.screenrig.education.monthly,premium=ai.screenrig.premium.monthly",
        help: "The App Store product of each plan, plan=product_id,… (O6).")
    public static let schoolDomains = Self(name: "LEDGER_K12_DOMAINS", defaultValue: nil,
        help: "K-12 school e-mail domain suffixes, comma-separated (O7); default: k12.<state>.us for every US state and DC, and sch.uk.")
    public static let notificationRate = Self(name: "LEDGER_NOTIFICATION_RATE", defaultValue: "20",
        help: "App Store notifications accepted per client address and second, bursts of twice that (N8).")
    public static let environment = Self(name: "LEDGER_ENVIRONMENT", defaultValue: nil,
        help: "`production` (also when unset) or `development`, exactly; anything else is a startup error. Development allows what production refuses: App Store test roots, plain-http webhooks to loopback, the console by default, secrets made per process (docs/security.md). `ledger dev`, and commands in a clone that use its cluster, run as development.")
    public static let appStoreExtraRoots = Self(name: "LEDGER_APPSTORE_EXTRA_ROOTS", defaultValue: nil,
        help: "Colon-separated DER or PEM files of roots trusted for App Store JWS besides Apple Root CA - G3 (a test CA, Xcode's StoreKit test certificate); ignored when LEDGER_ENVIRONMENT is production (a warning at start-up says so).")
    public static let appStoreAPIKeys = Self(name: "LEDGER_APPSTORE_API_KEYS", defaultValue: nil,
        help: "A JSON file of the In-App Purchase keys the ledger asks Apple's App Store Server API with, one entry per app and environment (docs/appstore-server-api.md, \"Configuration\"); its .p8 files beside it or named by absolute paths. Never in the log; `ledger serve` refuses it in production.")
    public static let appStoreSyncEvery = Self(name: "LEDGER_APPSTORE_SYNC_EVERY", defaultValue: "3600",
        help: "Seconds between two runs of the notification history sync, which the active projector runs for each app of LEDGER_APPSTORE_API_KEYS to recover what Apple sent and the ledger does not hold (docs/appstore.md, \"Recovery\"); /readyz warns when the last success is older than twice this.")
    public static let appStoreOfferKeys = Self(name: "LEDGER_APPSTORE_OFFER_KEYS", defaultValue: nil,
        help: "A JSON file of the promotional offer keys `ledger serve` signs StoreKit's promotional offers with, one per bundle ID: {\"apps\": [{\"bundle_id\", \"key_id\", \"private_key_file\"}]} (docs/appstore.md, \"Promotional offer signatures\"); its .p8 files beside it or named by absolute paths. Use a key made for offers alone, never the App Store Server API's. Without it POST /v1/appstore/offers/signature answers 503 offer_key_not_configured.")
    public static let stripeWebhookSecrets = Self(name: "LEDGER_STRIPE_WEBHOOK_SECRETS", defaultValue: nil,
        help: "A JSON file of the Stripe endpoint secrets `ledger serve` verifies POST /v1/stripe/webhooks/{app_id} with: {\"apps\": [{\"app_id\", \"endpoint_secrets\": [\"whsec_…\", …]}]}, more than one secret while one is rolled (docs/web-checkout.md). Never in the log. An app without one answers 404 stripe_endpoint_not_configured.")
    public static let stripeWebhookTolerance = Self(name: "LEDGER_STRIPE_WEBHOOK_TOLERANCE", defaultValue: "300",
        help: "Seconds a Stripe webhook's signed time `t` may be from this clock, either way, before it is refused as stale.")
    public static let stripeAPIKeys = Self(name: "LEDGER_STRIPE_API_KEYS", defaultValue: nil,
        help: "A JSON file of the Stripe secret keys the ledger lists each app's events with to recover what a webhook did not bring: {\"apps\": [{\"app_id\", \"secret_key_file\"}]}, each key in a file of its own beside it (docs/stripe-api.md). Never in the log; beside the projector, never `ledger serve`.")
    public static let stripeSyncEvery = Self(name: "LEDGER_STRIPE_SYNC_EVERY", defaultValue: "3600",
        help: "Seconds between two runs of the Stripe events sync, which the active projector runs for each app of LEDGER_STRIPE_API_KEYS (docs/web-checkout.md, \"Nothing the processor sent is lost\").")
    public static let driftCheckEvery = Self(name: "LEDGER_DRIFT_CHECK_EVERY", defaultValue: "300",
        help: "Seconds between two drift checks, which the active projector runs: a sample of accounts folded again from the log and compared with the live rows, a difference shown on the operations /readyz (a warning naming the account), /metrics and the console (docs/operations.md, \"Drift\"); 0 turns it off. `ledger serve` reads it too, to warn when the last check is older than twice this.")
    public static let driftCheckSample = Self(name: "LEDGER_DRIFT_CHECK_SAMPLE", defaultValue: "20",
        help: "Accounts a drift check chooses (1 to 1000): half among those the last 10,000 events of the log changed, the rest at random; besides these, every account the last check found drifted is compared again until it is found clean.")
    public static let checkpointKeyFile = Self(name: "LEDGER_CHECKPOINT_KEY_FILE", defaultValue: nil,
        help: "PEM file of the Ed25519 key the active projector signs the log's checkpoints with (`ledger checkpoint-key create`); no checkpoints when unset. `ledger dev` keeps one in LEDGER_DATA_DIR.")
    public static let checkpointOrigin = Self(name: "LEDGER_CHECKPOINT_ORIGIN", defaultValue: "ledger",
        help: "The name checkpoints give the log (printable ASCII, no spaces): the deployment's host name, say.")
    public static let checkpointEvents = Self(name: "LEDGER_CHECKPOINT_EVERY_EVENTS", defaultValue: "10000",
        help: "A checkpoint is signed once this many events were appended since the last one…")
    public static let checkpointSeconds = Self(name: "LEDGER_CHECKPOINT_EVERY_SECONDS", defaultValue: "60",
        help: "…or once this many seconds passed, whichever comes first (never for a log that only grew by the last checkpoint).")
    public static let checkpointDirectory = Self(name: "LEDGER_CHECKPOINT_DIR", defaultValue: nil,
        help: "A directory (a mount another system keeps) each signed checkpoint is also written to: checkpoint-SIZE.txt, checkpoint-SIZE.sig, checkpoint-key.pem.")
    public static let publicCheckpoints = Self(name: "LEDGER_PUBLIC_CHECKPOINTS", defaultValue: "false",
        help: "`true`: GET /v1/log/checkpoints/… answers without a key (a checkpoint reveals only the log's size); proofs always need an auditor key.")

    /// Every setting, in the order `ledger --help` prints them.
    public static let all: [Self] = [
        .databaseURL, .directDatabaseURL, .projectorDatabaseURL, .migrationDatabaseURL, .archiveDirectory, .consoleAddress, .consoleSecret, .consoleURL, .consoleIdleMinutes, .consoleSessionHours, .metricsAddress, .trustedProxies, .host, .port, .httpThreads, .networkThreads, .maxQueuedRequests,
        .maxRequestsPerClient, .requestHeadTimeout, .requestBodyTimeout, .maxBodyBytes, .maxHeaderBytes,
        .connectionTimeout, .maxConnections, .maxConnectionsPerAddress, .poolSize, .logLevel, .readyMaxLag, .admissionLag, .admissionWait, .readDatabaseURLs, .readMaxLagEvents,
        .readMaxLagSeconds, .pollInterval,
        .shutdownGrace, .dataDirectory, .devPostgresPort, .sqlDirectory, .cursorSecret, .sessionSecret, .webhookKey, .publicOrigin, .appStoreBundleID, .appStoreProducts, .schoolDomains,
        .notificationRate, .operatorName, .environment, .appStoreExtraRoots, .appStoreAPIKeys, .appStoreSyncEvery, .appStoreOfferKeys, .stripeWebhookSecrets, .stripeWebhookTolerance, .stripeAPIKeys, .stripeSyncEvery, .driftCheckEvery, .driftCheckSample, .checkpointKeyFile, .checkpointOrigin, .checkpointEvents,
        .checkpointSeconds, .checkpointDirectory, .publicCheckpoints, .webhookListenSecret,
    ]
}
