import EventStore
import LedgerDomain
import LedgerServices
import Outbound
import Postgres
import WebhookSigning

/// What the operator commands work with, injected so that tests run them in-process
/// against their own database and clock.
public struct AdminServices: Sendable {
    /// Where events are appended.
    public var store: EventStore
    /// Reads of the log's head and the billing projection.
    public var connections: PostgresPool
    /// The time the commands judge against (funding changes, month ends, holds' pools).
    public var now: LedgerClock
    /// Seconds to wait for the billing projection to reach the log's head.
    public var projectionTimeout: Double
    /// Derives webhook secrets; nil when no key is configured (LEDGER_WEBHOOK_KEY).
    public var webhookSecrets: WebhookSecrets?
    /// Which webhook URLs are accepted.
    public var outboundPolicy: OutboundPolicy
    /// A URL of the role that owns the schema (LEDGER_MIGRATION_DATABASE_URL), for the one
    /// act the service's role may not do: detaching archived partitions (`ledger archive`).
    public var ownerURL: String?
    /// Seconds of inactivity that end a console session (LEDGER_CONSOLE_IDLE_MINUTES), for
    /// what `ledger admin operator sessions` says of each.
    public var consoleIdleTimeout: Double = ConsoleSession.defaultIdleTimeout

    /// - Parameters:
    ///   - now: the clock (the machine's by default).
    ///   - projectionTimeout: seconds to wait for the billing projection (30 by default).
    public init(store: EventStore, connections: PostgresPool, now: @escaping LedgerClock = SystemClock.now,
                projectionTimeout: Double = 30, webhookSecrets: WebhookSecrets? = nil, outboundPolicy: OutboundPolicy = .production,
                ownerURL: String? = nil) {
        self.ownerURL = ownerURL
        self.store = store
        self.connections = connections
        self.now = now
        self.projectionTimeout = projectionTimeout
        self.webhookSecrets = webhookSecrets
        self.outboundPolicy = outboundPolicy
    }

    /// The database login the commands run as (`session_user`): the operator every act is
    /// recorded under.
    public func login() throws -> String {
        try connections.read { try $0.query("SELECT session_user::text").rows.first?.requireString(0) } ?? ""
    }

    /// Services on DATABASE_URL with the machine's clock. Close `store` when done, so that
    /// the appender's thread finishes.
    public static func connect(_ environment: LedgerEnvironment) throws -> AdminServices {
        let url = try environment.databaseURL()
        let connections = try environment.databasePool(url, maximumConnections: 2)
        var services = AdminServices(store: EventStore(conninfo: connections.directConninfo, connections: connections), connections: connections,
                                     webhookSecrets: try environment.webhookSecrets(), outboundPolicy: environment.outboundPolicy,
                                     ownerURL: try? environment.migrationDatabaseURL())
        services.consoleIdleTimeout = Double(try environment.positiveInt(.consoleIdleMinutes)) * 60
        return services
    }
}
