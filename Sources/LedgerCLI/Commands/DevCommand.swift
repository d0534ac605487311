import AppStore
import Crypto
import EventStore
import Foundation
import Glibc
import HTTP
import LedgerJSON
import LedgerServices
import Observability
import Outbound
import Postgres

/// `ledger dev`: the embedded default — database, migrations, demo data, API and projector.
public enum DevCommand: LedgerCommand {
    public static let name = "dev"
    public static let summary = "Run everything locally: a PostgreSQL cluster under .ledger/, migrations, demo data, API and projector."
    public static let usage = """
        usage: ledger dev

        With DATABASE_URL unset, creates (once) and starts a PostgreSQL cluster under
        LEDGER_DATA_DIR (default .ledger/ at the clone's root) on 127.0.0.1:LEDGER_DEV_POSTGRES_PORT
        (unset and 54329 taken: a free port above it, remembered in
        LEDGER_DATA_DIR/postgres-port for the next start), creates the
        `ledger` database, a `ledger` login in ledger_service (the API) and a `projector`
        login in ledger_projector (the projector), and migrates. With
        DATABASE_URL set, migrates that database instead. Then seeds the demo data (once),
        starts `ledger serve` and `ledger project` as processes, waits until the API's
        /readyz answers 200 (or says why it does not, after two minutes), prints its URL
        and writes LEDGER_DATA_DIR/demo.json (mode 0600) with the
        base URL and every demo key and id. The demo keys are random, made once per data
        directory and kept in LEDGER_DATA_DIR/demo-keys.json (mode 0600); delete that file
        to have new ones issued (the old ones are revoked). Ctrl-C stops the API, the
        projector and the cluster (a cluster that was running already is left running). One `ledger dev` runs
        per LEDGER_DATA_DIR: a second exits 1, naming the first, and changes nothing. A
        second one in another LEDGER_DATA_DIR runs beside the first when its listeners
        (LEDGER_PORT, LEDGER_CONSOLE_ADDRESS, LEDGER_METRICS_ADDRESS) are free: a taken one
        is refused at once, naming each setting to change and free ports.
        Runs under the development profile; its cluster wants a password on TCP, and the
        API and the projector log in as two roles, each given only its own secrets: the
        projector's login, the checkpoint key and the webhook key are the projector's
        alone, as production's `ledger serve` insists (docs/security.md). The metrics and
        the readiness with the log's positions are on the API's operations listener,
        LEDGER_METRICS_ADDRESS (default 127.0.0.1:9464), printed and written to demo.json.
        """

    public static func run(arguments: [String], environment given: LedgerEnvironment) throws -> Int32 {
        _ = try Arguments(arguments, valued: [])
        // The embedded default is the development profile by name (docs/security.md), for
        // this process and the two it starts; asking it for production is a contradiction.
        if case (.production, .setting)? = try? given.profile() {
            throw DevStartError(message: "ledger dev runs the development profile; LEDGER_ENVIRONMENT=production is for `ledger serve` and `ledger project` on a database of their own")
        }
        var environment = given
        environment.values[LedgerEnvironment.Setting.environment.name] = DeploymentProfile.development.rawValue
        // One instance per data directory, before anything is checked or started: a second
        // one changes nothing, and never stops the first one's database.
        // LEDGER_DATA_DIR, else `.ledger` at the clone's root, from whichever folder of the
        // clone it runs; its children and the commands find the same one.
        let dataDirectory = environment.devCommandDataDirectory()
        environment.values[LedgerEnvironment.Setting.dataDirectory.name] = dataDirectory
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let instance = try DevInstanceLock(directory: dataDirectory)
        SignalWatcher.shared.install()
        var started: EmbeddedPostgres?
        do {
            // Held until this process ends, not only until its last use.
            return try withExtendedLifetime(instance) {
                try run(environment: environment, dataDirectory: dataDirectory, instance: instance, started: &started)
            }
        } catch {
            // Leave nothing running behind a failed start, but a database this process did
            // not start.
            try? started?.stop()
            throw error
        }
    }

    private static func run(environment: LedgerEnvironment, dataDirectory: String, instance: DevInstanceLock,
                            started: inout EmbeddedPostgres?) throws -> Int32 {
        let logger = try environment.logger(component: "dev")
        try environment.announceProfile(logger)
        let port = try environment.int(.port)
        let host = try environment.require(.host)
        let console = try environment.consoleAddress()
        let operations = try environment.metricsAddress()
        // Before anything starts: a health check could otherwise be answered by whatever
        // already listens there, and a demo.json be written for a server that never ran.
        // Every taken address in one refusal (a second `ledger dev` of another data
        // directory takes all three), with the settings to change (DevPorts).
        var listeners = [DevPorts.Listener(what: "the API", host: host, port: port, setting: .port, canBeOff: false, step: 10)]
        if let console {
            listeners.append(DevPorts.Listener(what: "the console", host: console.host, port: console.port, setting: .consoleAddress,
                                               canBeOff: true, step: 10))
        }
        if let operations {
            listeners.append(DevPorts.Listener(what: "the operations listener (metrics)", host: operations.host, port: operations.port,
                                               setting: .metricsAddress, canBeOff: true, step: 1))
        }
        try DevPorts.checkListeners(listeners)

        let adminURL: String
        let serviceURL: String
        let consoleDatabaseURL: String
        let operatorURL: String
        let projectorURL: String
        var logins: DevLogins?
        if let configured = environment.string(.databaseURL) {
            adminURL = try environment.string(.migrationDatabaseURL) ?? environment.directDatabaseURL(for: configured)
            serviceURL = configured
            consoleDatabaseURL = configured
            operatorURL = configured
            projectorURL = environment.string(.projectorDatabaseURL) ?? configured
        } else {
            let pg = try startPostgres(environment: environment, dataDirectory: dataDirectory, logger: logger, started: &started)
            adminURL = try pg.createDatabase(name: "ledger")
            let made = DevLogins(superuserPassword: pg.superuserPassword ?? "", user: ProcessInfo.processInfo.userName)
            serviceURL = made.url(.service, on: adminURL)
            consoleDatabaseURL = made.url(.console, on: adminURL)
            operatorURL = made.url(.operator, on: adminURL)
            projectorURL = made.url(.projector, on: adminURL)
            logins = made
        }
        let admin = try PostgresConnection(conninfo: adminURL)
        try Migrator(migrations: try environment.migrations()).migrate(on: admin) { logger.info($0) }
        try logins?.ensure(on: admin)

        // Secrets that must survive restarts (cursors handed out, the demo session) are kept
        // beside the cluster, unless the environment gives them.
        let cursorSecret = try environment.string(.cursorSecret) ?? persistedSecret(dataDirectory + "/cursor-secret")
        let sessionSecret = try environment.string(.sessionSecret) ?? persistedSecret(dataDirectory + "/session-secret")
        let webhookKey = try environment.string(.webhookKey) ?? persistedSecret(dataDirectory + "/webhook-key")
        let consoleSecret = try environment.string(.consoleSecret) ?? persistedSecret(dataDirectory + "/console-secret")
        let consoleURL = console.map { "http://\(DevPorts.urlHost($0.host)):\($0.port)" }
        let operationsURL = operations.map { "http://\(DevPorts.urlHost($0.host)):\($0.port)" }

        let store = EventStore(conninfo: adminURL)
        var demo = try DemoData.seed(store: store, sessionSecret: Array(sessionSecret.utf8), dataDirectory: dataDirectory)
        demo["console"] = try DemoData.seedOperators(store: store, url: adminURL, secret: Array(consoleSecret.utf8), consoleURL: consoleURL)
        store.close()

        // Each child gets the secrets it needs and no other (DevChildEnvironments): the API
        // never holds the console's or the projector's login, the checkpoint key or the
        // webhook key.
        let consoleAddress = console.map { "\($0.host):\($0.port)" } ?? "off"
        var api: [String: String] = [
            "DATABASE_URL": serviceURL, "LEDGER_PORT": String(port), "LEDGER_HOST": host,
            "LEDGER_CURSOR_SECRET": cursorSecret, "LEDGER_SESSION_SECRET": sessionSecret,
            "LEDGER_CONSOLE_ADDRESS": consoleAddress,
            LedgerEnvironment.Setting.metricsAddress.name: operations.map { "\($0.host):\($0.port)" } ?? "off",
        ]
        var consoleEnvironment = ["DATABASE_URL": consoleDatabaseURL, "LEDGER_CONSOLE_SECRET": consoleSecret,
                                  "LEDGER_CONSOLE_ADDRESS": consoleAddress]
        var projector: [String: String] = ["DATABASE_URL": projectorURL, "LEDGER_WEBHOOK_KEY": webhookKey]
        // A configured DATABASE_URL through a pooler keeps its direct twin in each child
        // that logs in with it (docs/scaling.md, "PgBouncer").
        if let direct = environment.string(.directDatabaseURL), environment.string(.databaseURL) != nil {
            api[LedgerEnvironment.Setting.directDatabaseURL.name] = direct
            consoleEnvironment[LedgerEnvironment.Setting.directDatabaseURL.name] = direct
            if projectorURL == serviceURL { projector[LedgerEnvironment.Setting.directDatabaseURL.name] = direct }
        }
        // The log's checkpoints: a key kept beside the cluster, and a witness folder.
        var keyFile = environment.string(.checkpointKeyFile)
        if keyFile == nil {
            let path = dataDirectory + "/" + LedgerEnvironment.devCheckpointKeyFile
            if !FileManager.default.fileExists(atPath: path) {
                try PrivateFile.write(Ed25519SigningKey().privateKeyPEM, to: path)
            }
            keyFile = path
        }
        projector["LEDGER_CHECKPOINT_KEY_FILE"] = keyFile
        // Every 5 seconds rather than every minute, so that a demo's log shows its checkpoints move.
        if environment.values[LedgerEnvironment.Setting.checkpointSeconds.name] == nil {
            projector[LedgerEnvironment.Setting.checkpointSeconds.name] = "5"
        }
        let checkpointDirectory = environment.string(.checkpointDirectory) ?? dataDirectory + "/checkpoints"
        try FileManager.default.createDirectory(atPath: checkpointDirectory, withIntermediateDirectories: true)
        projector["LEDGER_CHECKPOINT_DIR"] = checkpointDirectory
        // A development certificate authority the local service trusts, so that
        // `ledger appstore sign` makes transactions it accepts (never in production).
        let authorityDirectory = dataDirectory + "/appstore-test-ca"
        _ = try AppStoreTestAuthority.loadOrCreate(in: authorityDirectory)
        let testRoot = authorityDirectory + "/" + AppStoreTestAuthority.File.root
        api["LEDGER_APPSTORE_EXTRA_ROOTS"] = ([testRoot] + [environment.string(.appStoreExtraRoots)].compactMap { $0 })
            .joined(separator: ":")
        // A stand-in for Apple's App Store Server API, which the projector's notification
        // history sync asks every minute (docs/appstore.md, "Trying the recovery locally"),
        // unless the developer gives keys of their own.
        var appleStandIn: DevAppStoreStandIn?
        if environment.string(.appStoreAPIKeys) == nil {
            let standIn = try DevAppStoreStandIn.start(
                dataDirectory: dataDirectory, authority: try AppStoreTestAuthority.loadOrCreate(in: authorityDirectory), authorityRoot: testRoot,
                bundleID: try environment.require(.appStoreBundleID), notificationURL: "http://\(DevPorts.urlHost(host)):\(port)/v1/appstore/notifications/sandbox")
            projector[LedgerEnvironment.Setting.appStoreAPIKeys.name] = standIn.keysFile
            appleStandIn = standIn
        }
        if environment.values[LedgerEnvironment.Setting.appStoreSyncEvery.name] == nil {
            // The API's /readyz judges the sync overdue against the same period.
            projector[LedgerEnvironment.Setting.appStoreSyncEvery.name] = "60"
            api[LedgerEnvironment.Setting.appStoreSyncEvery.name] = "60"
        }
        // A stand-in for Stripe: the demo app's webhook endpoint, and the events the
        // projector's sync lists (docs/web-checkout.md, "Trying it locally"), unless the
        // developer gives secrets and keys of their own.
        var stripeStandIn: DevStripeStandIn?
        if environment.string(.stripeWebhookSecrets) == nil && environment.string(.stripeAPIKeys) == nil {
            let standIn = try DevStripeStandIn.start(dataDirectory: dataDirectory, app: DemoData.catalogApp, baseURL: "http://\(DevPorts.urlHost(host)):\(port)")
            api[LedgerEnvironment.Setting.stripeWebhookSecrets.name] = standIn.webhookSecretsFile
            projector[LedgerEnvironment.Setting.stripeAPIKeys.name] = standIn.keysFile
            stripeStandIn = standIn
        }
        if environment.values[LedgerEnvironment.Setting.stripeSyncEvery.name] == nil {
            projector[LedgerEnvironment.Setting.stripeSyncEvery.name] = "60"
            api[LedgerEnvironment.Setting.stripeSyncEvery.name] = "60"
        }
        // A promotional offer key of its own for the demo app, unless one is configured.
        let offerKeys = try environment.string(.appStoreOfferKeys)
            ?? DevOfferKey.loadOrCreate(in: dataDirectory, bundleID: DemoData.catalogBundleID)
        api[LedgerEnvironment.Setting.appStoreOfferKeys.name] = offerKeys
        let childEnvironments = DevChildEnvironments(parent: environment.values, api: api, console: consoleEnvironment, projector: projector)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let children = ChildProcesses(logger: logger)
        let logs = dataDirectory + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        // Each process as its own login (docs/security.md): the projector alone writes the
        // projections; the API and the console read them, and append only their own acts.
        // The console's rebuild, which would need the projector's login, points to
        // `ledger replay` instead.
        try children.spawn(executable, ["project"], environment: childEnvironments.projector, name: "projector", log: logs + "/projector.log")
        try children.spawn(executable, ["serve"], environment: childEnvironments.api, name: "api", log: logs + "/api.log")
        if console != nil {
            try children.spawn(executable, ["console"], environment: childEnvironments.console, name: "console", log: logs + "/console.log")
        }

        let baseURL = "http://\(DevPorts.urlHost(host)):\(port)"
        // The console too, when it runs: the banner promises both.
        guard waitForHealth(host: DevPorts.urlHost(host), port: port, children: children),
              console.map({ waitForHealth(host: DevPorts.urlHost($0.host), port: $0.port, path: "/login", children: children) }) ?? true else {
            if let dead = children.firstExited() {
                reportExit(dead)
            }
            logger.error("the API or the console did not come up; stopping")
            children.stopAll()
            try? started?.stop()
            return 1
        }
        var document = demo
        if case .object(var appStore)? = document["appstore"] {
            appStore["test_authority"] = .string(authorityDirectory)
            appStore["sign_transaction"] = .string("ledger appstore sign transaction --account-token \(DemoData.accountToken) --body")
            appStore["standin"] = appleStandIn?.demo ?? "off (LEDGER_APPSTORE_API_KEYS is set)"
            document["appstore"] = .object(appStore)
        }
        if let stripeStandIn {
            let demoStore = EventStore(conninfo: adminURL)
            if try stripeStandIn.playDemo(app: DemoData.catalogApp, store: demoStore) {
                logger.info("the demo's web customers were played through the Stripe stand-in", ["users": "web-ana, web-bo, web-cy"])
            }
            demoStore.close()
        }
        // "Running" means ready: the projector has created and caught up every projection,
        // so that the first request a developer sends is answered from them.
        // (LEDGER_TEST_DEV_READY_SECONDS shortens the wait for the tests; it is no setting.)
        let readinessWait = environment.values["LEDGER_TEST_DEV_READY_SECONDS"].flatMap(Double.init) ?? Self.readinessWait
        let readiness = waitForReady(baseURL: baseURL, within: readinessWait, children: children, logger: logger)
        if readiness.stopped {
            let dead = children.firstExited()
            if let dead {
                reportExit(dead)
                logger.error("the \(dead.name) stopped before the service was ready; stopping")
            }
            children.stopAll()
            try? started?.stop()
            return dead == nil ? 0 : 1  // Ctrl-C while waiting: done
        }
        if readiness.reason == nil {
            playStory(document: document, adminURL: adminURL, baseURL: baseURL, authorityDirectory: authorityDirectory,
                      environment: environment, logger: logger)
        }
        document["stripe"] = stripeStandIn?.demo ?? "off (LEDGER_STRIPE_WEBHOOK_SECRETS or LEDGER_STRIPE_API_KEYS is set)"
        document["promotional_offers"] = ["keys_file": .string(offerKeys), "product_id": .string(DemoData.monthly),
                                          "signature": .string(baseURL + "/v1/appstore/offers/signature")]
        document["base_url"] = .string(baseURL)
        document["environment"] = .string(DeploymentProfile.development.rawValue)
        document["database_url"] = .string(serviceURL)
        document["console_database_url"] = .string(consoleDatabaseURL)
        document["operator_database_url"] = .string(operatorURL)
        document["projector_database_url"] = .string(projectorURL)
        document["admin_database_url"] = .string(adminURL)
        // The operations listener: the metrics and the readiness with positions, for
        // operators (the public /readyz says only ready or not, and why).
        document["operations"] = operationsURL.map {
            ["url": .string($0), "metrics": .string($0 + "/metrics"), "readiness": .string($0 + "/readyz")]
        } ?? "off"
        document["checkpoints"] = ["directory": .string(checkpointDirectory),
                                   "key_file": .string(keyFile ?? ""),
                                   "latest": .string(baseURL + "/v1/log/checkpoints/latest")]
        let demoPath = dataDirectory + "/demo.json"
        // Passwords, keys and the database's URLs: the owner's alone (0600), from its first byte.
        try PrivateFile.write(JSONValue.object(document).prettyText(), to: demoPath)
        instance.record(url: baseURL)
        let headline = readiness.reason.map {
            "ledger started at \(baseURL), but is NOT READY: /readyz still answers 503 after \(Int(readinessWait)) s: \($0)\n" +
            "  (the projector's log says why: tail \(logs)/projector.log; it keeps trying)"
        } ?? "ledger is running at \(baseURL)"
        print("""

            \(headline)
              health:   curl \(baseURL)/healthz
              ready:    curl \(baseURL)/readyz
              openapi:  curl \(baseURL)/openapi.json
              demo keys and ids: \(demoPath)
              console:  \(consoleURL ?? "off (LEDGER_CONSOLE_ADDRESS)")  (logins in demo.json, "console")
              apple:    \(appleStandIn.map { "\($0.standIn.baseURL)  (a stand-in for the App Store Server API; the projector asks it every minute)" } ?? "LEDGER_APPSTORE_API_KEYS")
              stripe:   \(stripeStandIn.map { "\($0.standIn.baseURL)  (a stand-in for Stripe: it signs the demo app's webhooks; the projector lists its events every minute)" } ?? "LEDGER_STRIPE_WEBHOOK_SECRETS / LEDGER_STRIPE_API_KEYS")
              metrics:  \(operationsURL.map { "curl \($0)/metrics  (and \($0)/readyz with the log's positions; operators only)" } ?? "off (LEDGER_METRICS_ADDRESS)")
              database: \(PostgresURL.redacted(serviceURL))  (its password in demo.json)
              operator: \(logins.map { $0.operatorName } ?? "DATABASE_URL's user")  (`ledger admin` here records its acts under this database login)
              logs:     tail -f \(logs)/api.log \(logs)/console.log \(logs)/projector.log
            Ctrl-C stops everything.

            """)
        fflush(nil)  // seen at once even when stdout is a pipe
        var failed = false
        while !SignalWatcher.shared.shouldStop {
            if let dead = children.firstExited() {
                reportExit(dead)
                failed = true
                break
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        logger.info(started == nil ? "stopping the API, the console and the projector (the database was running before: it is left running)"
                                   : "stopping the API, the console, the projector and the database")
        children.stopAll()
        if let started { try started.stop() }
        // Stopped by Ctrl-C: done. Stopped because the API or the projector died: a failure.
        return failed ? 1 : 0
    }

    /// Says which child stopped, and shows the end of its log (which is not on the terminal).
    private static func reportExit(_ dead: (name: String, status: Int32, log: String)) {
        let tail = ChildProcesses.tail(of: dead.log)
        FileHandle.standardError.write(Data("ledger dev: the \(dead.name) exited with status \(dead.status); the end of \(dead.log):\n\(tail)\n".utf8))
    }

    struct DevStartError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A random secret kept in a file (mode 0600), created on first use.
    private static func persistedSecret(_ path: String) throws -> String {
        if let text = try? String(contentsOfFile: path, encoding: .utf8), text.utf8.count >= 32 {
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let secret = Hex.encode(SecureRandom.bytes(32))
        try PrivateFile.write(secret, to: path)
        return secret
    }

    /// Starts (or reuses) the data directory's cluster on its port (`DevPorts.postgresPort`),
    /// remembers the port, and returns it. A port `ledger dev` chose that another program
    /// takes in the meantime is chosen again (twice at most); a start that fails on a port
    /// the developer set names LEDGER_DEV_POSTGRES_PORT.
    private static func startPostgres(environment: LedgerEnvironment, dataDirectory: String, logger: Logger,
                                      started: inout EmbeddedPostgres?) throws -> EmbeddedPostgres {
        let directory = dataDirectory + "/postgres"
        let explicit = !(environment.values[LedgerEnvironment.Setting.devPostgresPort.name] ?? "").isEmpty
        var attempt = 0
        while true {
            attempt += 1
            let probe = EmbeddedPostgres(directory: directory, port: DevPorts.defaultPostgresPort)
            let running = probe.runningPort
            let (port, note) = try DevPorts.postgresPort(environment: environment, dataDirectory: dataDirectory, runningPort: running)
            if let note { logger.warning(note, ["port": .int(port)]) }
            let pg = EmbeddedPostgres(directory: directory, port: port)
            logger.info(running != nil ? "the embedded PostgreSQL is running already: it is used, and left running at the end"
                                       : "starting the embedded PostgreSQL", ["directory": .string(pg.clusterDirectory), "port": .int(port)])
            do {
                _ = try pg.start()
            } catch let error as EmbeddedPostgresError where error.code == .startFailed && running == nil {
                if !explicit && attempt < 3 && !DevPorts.isFree(host: "127.0.0.1", port: port) {
                    logger.warning("port \(port) was taken while the dev PostgreSQL started: choosing another", [:])
                    continue
                }
                let setting = LedgerEnvironment.Setting.devPostgresPort.name
                throw DevStartError(message: error.message + "\n" + (explicit
                    ? "The port is \(setting)=\(port): if another server took it, choose another with \(setting), or unset it and `ledger dev` picks a free one."
                    : "The port (\(port)) was chosen by `ledger dev` (\(setting) is unset); set \(setting) to choose one."))
            }
            if running == nil { started = pg }
            DevPorts.rememberPostgresPort(port, dataDirectory: dataDirectory)
            return pg
        }
    }

    /// How long `ledger dev` waits for /readyz to answer 200 before it says why not.
    static let readinessWait: Double = 120

    /// Waits (at most `readinessWait` seconds, by default `Self.readinessWait`) until the API's /readyz answers 200: `reason`
    /// nil then; else the reason its last answer gave. `stopped` when a child exited or
    /// Ctrl-C was pressed meanwhile.
    private static func waitForReady(baseURL: String, within readinessWait: Double, children: ChildProcesses,
                                     logger: Logger) -> (reason: String?, stopped: Bool) {
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        let start = Date()
        var reason = Readiness.Reason.notCheckedYet
        var said = false
        while Date().timeIntervalSince(start) < readinessWait {
            if SignalWatcher.shared.shouldStop || children.firstExited() != nil { return (reason, true) }
            var request = OutboundRequest(method: "GET", url: baseURL + "/readyz", timeout: 5)
            request.keepsAnswer = true
            if let response = try? client.send(request) {
                if response.status == 200 { return (nil, false) }
                if let body = response.body, let text = (try? JSONValue.parse(body))?["reason"]?.stringValue { reason = text }
            }
            if !said && Date().timeIntervalSince(start) > 10 {
                logger.info("waiting for /readyz to answer 200", ["reason": .string(reason)])
                said = true
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return (reason, false)
    }

    /// Whether `path` on `host:port` answered 200 within a minute, while every child runs.
    private static func waitForHealth(host: String, port: Int, path: String = "/healthz", children: ChildProcesses) -> Bool {
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !SignalWatcher.shared.shouldStop {
            if children.firstExited() != nil { return false }
            if let response = try? client.send(OutboundRequest(method: "GET", url: "http://\(host):\(port)\(path)", timeout: 2)),
               response.status == 200 {
                return true
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }
}
