import EventStore
import Foundation
import LedgerDomain
import LedgerServices
import Observability
import Postgres
import ProjectionEngine
import Projections
import Workers

/// `ledger project`: the projector process.
public enum ProjectCommand: LedgerCommand {
    public static let name = "project"
    public static let summary = "Run the projector: fold the log into projections (one active per database)."
    public static let usage = """
        usage: ledger project [--batch N]

        Folds new events into every projection, applying each batch and moving its
        checkpoint in one transaction. Wakes on the log's NOTIFY and polls every
        LEDGER_PROJECTOR_POLL_INTERVAL seconds anyway. A second projector waits on an
        advisory lock and takes over when the first one's session ends. A projection that
        cannot apply an event stops there, logs the position and the error, and is retried
        when the projector restarts; the others go on. Stops on SIGINT or SIGTERM after the
        batch in flight.

        With LEDGER_APPSTORE_API_KEYS set, the active projector also asks Apple's
        notification history every LEDGER_APPSTORE_SYNC_EVERY seconds and records what the
        log does not hold (docs/appstore.md, "Recovery"), and answers Apple's refund
        requests with the consumption information of the apps whose entry says
        "consumption_consent": true (docs/appstore.md, "Refund requests").

        With LEDGER_WEBHOOK_KEY set, the active projector also sends the webhook messages
        (docs/webhooks.md): each subscription's in order, retried for three days, every
        attempt recorded in the log. With LEDGER_CHECKPOINT_KEY_FILE set, it also signs
        checkpoints of the log's Merkle tree and appends them (docs/audit.md).

        Every LEDGER_DRIFT_CHECK_EVERY seconds (default 300; 0 turns it off) the active
        projector also folds a sample of LEDGER_DRIFT_CHECK_SAMPLE accounts again from the
        log and compares them with the live rows: a difference is recorded and shown on the
        operations /readyz as a warning naming the account, on /metrics and on the
        console's projections page (docs/operations.md, "Drift").

          --batch N   events per transaction (default 5000)

        LEDGER_FAULT_CRASH_AFTER_POSITION (tests only): exit with status 97 after applying
        the batch holding that position, before it commits.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["batch"])
        SignalWatcher.shared.install()
        let logger = try environment.logger(component: "projector")
        try environment.announceProfile(logger)
        let crash = environment.values["LEDGER_FAULT_CRASH_AFTER_POSITION"].flatMap { Int64($0) }
        let url = try environment.projectorDatabaseURL()
        // The engine's connections hold the leader's session lock and LISTEN: PostgreSQL
        // itself. The jobs beside it use pools, which may go through a pooler.
        let direct = try environment.directDatabaseURL(for: url)
        let projector = Projector(
            configuration: .init(conninfo: direct, projections: AllProjections.all,
                                 batchSize: try args.int("batch", default: 5_000),
                                 pollInterval: try environment.double(.pollInterval), crashAfterApplying: crash,
                                 archiveDirectory: environment.string(.archiveDirectory)),
            log: logger.projectorLog)
        // The checkpointer signs the log's checkpoints while this process is the active
        // projector (docs/audit.md).
        let checkpoints = try environment.checkpointConfiguration(now: SystemClock.now).map { configuration in
            let connections = try environment.databasePool(url, maximumConnections: 2)
            let store = EventStore(conninfo: connections.directConninfo, connections: connections)
            let checkpointer = Checkpointer(configuration: configuration, store: store, connections: connections,
                                            isActive: { projector.status.withLock { $0.active } }, log: logger.projectorLog)
            return (checkpointer: checkpointer, store: store)
        }
        if checkpoints == nil { logger.info("no LEDGER_CHECKPOINT_KEY_FILE: the log's checkpoints are not signed", [:]) }
        // The notification history sync recovers what Apple sent and the ledger does not
        // hold, while this process is the active projector (docs/appstore.md, "Recovery").
        let appStoreSync = try appStoreSyncJob(environment: environment, url: url, logger: logger) { projector.status.withLock { $0.active } }
        let stripeSync = try stripeSyncJob(environment: environment, url: url, logger: logger) { projector.status.withLock { $0.active } }
        // The drift check folds a sample of accounts again from the log and compares them
        // with the live rows, while this process is the active projector (docs/operations.md).
        let drift = try driftCheckJob(environment: environment, url: url, logger: logger) { projector.status.withLock { $0.active } }
        // The webhook sender runs beside the projector and sends only while this process
        // is the active projector (docs/architecture.md). Made last: its thread starts with it.
        let webhooks = try environment.webhookSecrets().map { secrets -> (dispatcher: WebhookSender, store: EventStore) in
            let connections = try environment.databasePool(url, maximumConnections: 2)
            let store = EventStore(conninfo: connections.directConninfo, connections: connections)
            let queries = QueryRunner(connections: connections, clock: SystemClock.now)
            let available: @Sendable (WebhookSubject) throws -> Millicredits? = { subject in
                try queries.answer(BalanceQuery(subject.kind == .payer ? .payer(subject.id) : .project(subject.id)),
                                   as: .operator("webhook sender"))?.available
            }
            let dispatcher = WebhookSender(configuration: .init(secrets: secrets, policy: environment.outboundPolicy,
                                                                    now: SystemClock.now, available: available),
                                               store: store, connections: connections,
                                               isActive: { projector.status.withLock { $0.active } }, log: logger.projectorLog)
            return (dispatcher, store)
        }
        if webhooks == nil { logger.info("no LEDGER_WEBHOOK_KEY: webhook messages are not sent", [:]) }
        // Started once every setting is read: a refusal above exits with no thread in the
        // middle of a database login (whose TLS the exit would tear down under it).
        checkpoints?.checkpointer.start()
        appStoreSync?.job.start()
        appStoreSync?.consumption?.start()
        stripeSync?.job.start()
        drift?.job.start()
        projector.run { SignalWatcher.shared.shouldStop }
        drift?.job.stop()
        drift?.connections.closeIdle()
        stripeSync?.job.stop()
        stripeSync?.store.close()
        appStoreSync?.consumption?.stop()
        appStoreSync?.job.stop()
        appStoreSync?.store.close()
        webhooks?.dispatcher.stop()
        webhooks?.store.close()
        checkpoints?.checkpointer.stop()
        checkpoints?.store.close()
        logger.info("projector stopped")
        return 0
    }
}

extension ProjectCommand {
    /// The drift check, not started yet; nil when LEDGER_DRIFT_CHECK_EVERY is 0.
    static func driftCheckJob(environment: LedgerEnvironment, url: String, logger: Logger, isActive: @escaping @Sendable () -> Bool) throws
        -> (job: DriftCheckJob, connections: PostgresPool)? {
        let settings = try environment.driftCheckSettings()
        guard settings.every > 0 else {
            logger.info("LEDGER_DRIFT_CHECK_EVERY is 0: the projections are not checked against the log between replays", [:])
            return nil
        }
        let connections = try environment.databasePool(url, maximumConnections: 2)
        let job = DriftCheckJob(check: ProjectionDriftCheck(connections: connections, settings: settings), isActive: isActive,
                                log: logger.projectorLog)
        logger.info("drift check", ["every_seconds": .string(String(Int(settings.every))), "sample": .string(String(settings.sample))])
        return (job, connections)
    }

    /// The Stripe events sync of each app of LEDGER_STRIPE_API_KEYS, not started yet; nil without keys.
    static func stripeSyncJob(environment: LedgerEnvironment, url: String, logger: Logger, isActive: @escaping @Sendable () -> Bool) throws
        -> (job: StripeSyncJob, store: EventStore)? {
        let connections = try environment.databasePool(url, maximumConnections: 2)
        let store = EventStore(conninfo: connections.directConninfo, connections: connections)
        let syncs = try environment.stripeEventsSyncs(connections: connections, store: store)
        guard !syncs.isEmpty else {
            store.close()
            logger.info("no LEDGER_STRIPE_API_KEYS: Stripe events a webhook did not bring are not recovered", [:])
            return nil
        }
        let job = StripeSyncJob(syncs: syncs, isActive: isActive, log: logger.projectorLog)
        logger.info("stripe events sync", ["apps": .string(syncs.map(\.appID).joined(separator: ", ")),
                                           "every_seconds": .string(String(Int(syncs[0].settings.every)))])
        return (job, store)
    }

    /// The notification history sync of each app of LEDGER_APPSTORE_API_KEYS, and the
    /// answerer of refund requests over the same clients, not started yet; nil without keys.
    static func appStoreSyncJob(environment: LedgerEnvironment, url: String, logger: Logger, isActive: @escaping @Sendable () -> Bool) throws
        -> (job: AppStoreSyncJob, consumption: AppStoreConsumptionJob?, store: EventStore)? {
        let connections = try environment.databasePool(url, maximumConnections: 2)
        let store = EventStore(conninfo: connections.directConninfo, connections: connections)
        let syncs = try environment.appStoreHistorySyncs(connections: connections, store: store)
        guard !syncs.isEmpty else {
            store.close()
            logger.info("no LEDGER_APPSTORE_API_KEYS: notifications Apple sent and the ledger missed are not recovered", [:])
            return nil
        }
        let job = AppStoreSyncJob(syncs: syncs, isActive: isActive, log: logger.projectorLog)
        let consumption = try environment.appStoreConsumptionResponder(syncs: syncs, connections: connections, store: store).map {
            AppStoreConsumptionJob(responder: $0, isActive: isActive, log: logger.projectorLog)
        }
        logger.info("app store refund requests answered", ["consent": .string((consumption == nil ? [] : try environment.appStoreAPIApps()).map {
            "\($0.configuration.credentials.bundleID) (\($0.configuration.environment.signedEnvironment)): \($0.consumption.consent ? "sent" : "declined, no consumption_consent")"
        }.joined(separator: ", "))])
        logger.info("app store notification history sync", ["apps": .string(syncs.map { "\($0.bundleID) (\($0.environment))" }.joined(separator: ", ")),
                                                             "every_seconds": .string(String(Int(syncs[0].settings.every)))])
        return (job, consumption, store)
    }
}
