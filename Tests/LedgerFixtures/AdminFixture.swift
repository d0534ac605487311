import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections
import Synchronization
import TestSupport
import Testing
import WebhookSigning

/// A fresh database, a projector on a thread of the test process, and the operator
/// commands run in-process against both, with a clock the test sets.
public final class AdminFixture: Sendable {
    public let db: TestDatabase
    public let store: EventStore
    public let pool: PostgresPool
    public let clock = ManualClock("2026-11-15T12:00:00Z")
    private let projector = Mutex<ProjectorThread?>(nil)
    /// Each operator's services, on their own database login (`ledger admin` records its
    /// acts under the login: migration 0013).
    private let operators = Mutex<[String: AdminServices]>([:])
    /// How long commands wait for the projection (short in tests that stop the projector).
    public let projectionTimeout: Double

    public init(projector startsProjector: Bool = true, projectionTimeout: Double = 20,
         partitionSize: Int64 = TestDatabase.partitionSize) throws {
        db = try TestDatabase.create(partitionSize: partitionSize)
        pool = PostgresPool(conninfo: db.writerURL, maximumConnections: 4)
        store = EventStore(conninfo: db.writerURL, connections: pool)
        self.projectionTimeout = projectionTimeout
        if startsProjector { startProjector() }
    }

    public func startProjector() {
        projector.withLock { $0 = $0 ?? ProjectorThread(url: db.projectorURL) }
    }

    public func stopProjector() {
        projector.withLock { current in
            current?.stop()
            current = nil
        }
    }

    public func shutdown() {
        stopProjector()
        for services in operators.withLock({ Array($0.values) }) {
            services.store.close()
            services.connections.closeIdle()
        }
        store.close()
        pool.closeIdle()
        db.drop()
    }

    public var services: AdminServices {
        AdminServices(store: store, connections: pool, now: clock.read, projectionTimeout: projectionTimeout,
                      webhookSecrets: Self.webhookSecrets, outboundPolicy: .development, ownerURL: db.superuserURL)
    }

    /// The services `ledger admin` runs with as the operator `name`: a login of that name
    /// in `ledger_operator`, made on the test cluster when missing.
    public func services(as name: String) throws -> AdminServices {
        try operators.withLock { operators in
            if let made = operators[name] { return made }
            let url = try db.operatorURL(name)
            let pool = PostgresPool(conninfo: url, maximumConnections: 2)
            var made = services
            made.store = EventStore(conninfo: url, connections: pool)
            made.connections = pool
            operators[name] = made
            return made
        }
    }

    /// The operator the tests act as unless they say otherwise.
    public static let defaultOperator = "alice"
    public static let operatorEnvironment: [String: String] = [:]
    public static let webhookKey = "a webhook key of the tests, 32+ bytes"
    public static let webhookSecrets = WebhookSecrets(key: Array(webhookKey.utf8))

    /// `ledger admin ARGUMENTS --reason REASON`, in-process.
    @discardableResult
    public func admin(_ arguments: [String], reason: String? = "checked by the tests",
                      environment: [String: String] = operatorEnvironment, as operator: String = defaultOperator) -> AdminOutcome {
        var all = arguments
        if let reason { all += ["--reason", reason] }
        return AdminCommand.execute(all, environment: environment) { try services(as: `operator`) }
    }

    /// `ledger admin ARGUMENTS --json`, which must succeed; its JSON object.
    public func adminJSON(_ arguments: [String], reason: String = "checked by the tests",
                   environment: [String: String] = operatorEnvironment, as operator: String = defaultOperator,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let outcome = admin(arguments + ["--json"], reason: reason, environment: environment, as: `operator`)
        try #require(outcome.status == 0, "ledger admin \(arguments.joined(separator: " ")) failed: \(outcome.errors)",
                     sourceLocation: sourceLocation)
        return try JSONValue.parse(outcome.output)
    }

    /// `ledger audit ARGUMENTS`, in-process.
    public func audit(_ arguments: [String]) -> AdminOutcome {
        AuditCommand.execute(arguments, environment: [:]) { services }
    }

    // MARK: The log and the projection

    public func head() throws -> Int64 { try store.log.headPosition() }

    /// Every event after `position`, in order.
    public func events(after position: Int64 = 0) throws -> [RecordedEvent] { try store.log.read(after: position, limit: 10_000) }

    /// Appends an event directly, as another writer (or a crashed command) would have.
    @discardableResult
    public func append<E: DomainEvent>(_ event: E, stream: String, occurredAt: Timestamp? = nil, key: String? = nil) throws -> AppendResult {
        try store.append(AppendRequest(events: [EventToAppend(stream: stream, type: E.type, data: try JSONValueEncoder().encode(event),
                                                              metadata: EventMetadata(actor: Actor(.system, "tests")),
                                                              occurredAt: occurredAt, idempotencyKey: key)]))
    }

    /// Waits until the billing projection has applied the whole log.
    public func settle(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let head = try head()
        let reached = try Poll.until(timeout: 20) {
            try pool.read { try ProjectionSchema.progress("proj_billing", on: $0)?.position ?? -1 } >= head
        }
        try #require(reached, "the billing projection did not reach position \(head)", sourceLocation: sourceLocation)
    }

    /// Waits until every projection has applied the whole log (reads that join several).
    public func settleAll(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let head = try head()
        for projection in AllProjections.all {
            let reached = try Poll.until(timeout: 20) {
                try pool.read { try ProjectionSchema.progress(projection.schema, on: $0)?.position ?? -1 } >= head
            }
            try #require(reached, "the \(projection.name) projection did not reach position \(head)", sourceLocation: sourceLocation)
        }
    }

    /// Rows of a query on the projection (after `settle`), as text.
    public func rows(_ sql: String, _ parameters: [String] = []) throws -> [[String?]] {
        try settle()
        return try pool.read { conn in
            let result = try conn.query(sql, parameters.map { $0 as any PostgresBindable })
            return result.rows.map { row in (0..<result.columnCount).map { row.string($0) } }
        }
    }

    // MARK: Set-ups most tests need

    public func payer(_ id: String, plan: String = "team", allowance: Int64 = 0) throws {
        _ = try adminJSON(["payer", "create", "--id", id, "--name", "Payer \(id)", "--plan", plan,
                           "--allowance-storage-bytes", String(allowance)])
    }

    public func project(_ id: String, payer: String? = nil) throws {
        _ = try adminJSON(["project", "create", "--id", id, "--name", "Project \(id)"]
                          + (payer.map { ["--payer", $0] } ?? ["--self-paying"]))
    }

    public func usage(_ project: String, _ meter: Meter, _ quantity: Int64, at instant: String) throws {
        let id = UUID().uuidString
        try append(UsageRecorded(usageID: id, projectID: project, meter: meter, quantity: quantity),
                   stream: UsageDecider.stream(project), occurredAt: Timestamp(iso8601: instant)!, key: UsageDecider.idempotencyKey(usageID: id))
    }

    /// An app `id` with the bundle id `com.example.<id>`.
    public func app(_ id: String) throws {
        _ = try adminJSON(["app", "create", "--id", id, "--name", "App \(id)", "--bundle-id", "com.example.\(id)"])
    }

    /// A monthly auto-renewable subscription with a web price.
    public func subscription(_ id: String, app: String) throws {
        _ = try adminJSON(["product", "set", "--app", app, "--id", id, "--type", "auto_renewable_subscription", "--name", id,
                           "--description", "d", "--group", "1", "--period", "P1M", "--trial", "P7D", "--web-price", "9.99",
                           "--currency", "USD"])
    }

    /// A Switch & Save campaign of 20 % from `eligible` to `product`.
    public func migration(_ id: String, app: String, product: String, eligible: String) throws {
        _ = try adminJSON(["campaign", "migration", "--app", app, "--id", id, "--product", product, "--eligible", eligible,
                           "--discount", "20", "--title", "t", "--message", "m"])
    }
}

extension AdminFixture {
    /// A read-only command with `--json` (no reason: it appends nothing), its JSON.
    public func read(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let outcome = admin(arguments + ["--json"], reason: nil)
        try #require(outcome.status == 0, "\(arguments.joined(separator: " ")): \(outcome.errors)", sourceLocation: sourceLocation)
        return try JSONValue.parse(outcome.output)
    }
}
