import AppStore
import Crypto
import EventStore
import Foundation
import Glibc
import HTTP
import LedgerJSON
import Outbound
import Postgres

/// `ledger dev`: the embedded default — database, migrations, demo data, API and projector.
public enum DevCommand: LedgerCommand {
    public static let name = "dev"
    public static let summary = "Run everything locally: a PostgreSQL cluster under .ledger/, migrations, demo data, API and projector."
    public static let usage = """
        usage: ledger dev

        With DATABASE_URL unset, creates (once) and starts a PostgreSQL cluster under
        LEDGER_DATA_DIR (default .ledger/) on 127.0.0.1:LEDGER_DEV_POSTGRES_PORT, creates the
        `ledger` database, a `ledger` login in ledger_service (the API) and a `projector`
        login in ledger_projector (the projector), and migrates. With
        DATABASE_URL set, migrates that database instead. Then seeds the demo data (once),
        starts `ledger serve` and `ledger project` as processes, waits until the API
        answers, prints its URL and writes LEDGER_DATA_DIR/demo.json (mode 0600) with the
        base URL and every demo key and id. The demo keys are random, made once per data
        directory and kept in LEDGER_DATA_DIR/demo-keys.json (mode 0600); delete that file
        to have new ones issued (the old ones are revoked). Ctrl-C stops the API, the
        projector and the cluster (a cluster that was running already is left running). One `ledger dev` runs
        per LEDGER_DATA_DIR: a second exits 1, naming the first, and changes nothing.
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
        let dataDirectory = URL(fileURLWithPath: try environment.require(.dataDirectory)).standardizedFileURL.path
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
        // Before anything starts: a health check could otherwise be answered by whatever
        // already listens there, and a demo.json be written for a server that never ran.
        do {
            try HTTPServer.checkAvailable(host: host, port: port)
        } catch {
            throw DevStartError(message: "cannot serve on \(host):\(port): \(error.message). Another server is using it: stop it, or choose another port with LEDGER_PORT=8090 (and LEDGER_DEV_POSTGRES_PORT if the database's port is taken too)")
        }

        let adminURL: String
        let serviceURL: String
        let consoleDatabaseURL: String
        let operatorURL: String
        let projectorURL: String
        var logins: DevLogins?
        if let configured = environment.string(.databaseURL) {
            adminURL = environment.string(.migrationDatabaseURL) ?? configured
            serviceURL = configured
            consoleDatabaseURL = configured
            operatorURL = configured
            projectorURL = environment.string(.projectorDatabaseURL) ?? configured
        } else {
            let pg = EmbeddedPostgres(directory: dataDirectory + "/postgres", port: try environment.int(.devPostgresPort))
            let wasRunning = pg.isRunning
            logger.info(wasRunning ? "the embedded PostgreSQL is running already: it is used, and left running at the end"
                                   : "starting the embedded PostgreSQL", ["directory": .string(pg.clusterDirectory)])
            _ = try pg.start()
            if !wasRunning { started = pg }
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
        let console = try environment.consoleAddress()
        if let console {
            do {
                try HTTPServer.checkAvailable(host: console.host, port: console.port)
            } catch {
                throw DevStartError(message: "cannot run the console on \(console.host):\(console.port): \(error.message). Choose another address with LEDGER_CONSOLE_ADDRESS=127.0.0.1:8091, or LEDGER_CONSOLE_ADDRESS=off")
            }
        }
        let consoleURL = console.map { "http://\($0.host):\($0.port)" }
        let operations = try environment.metricsAddress()
        if let operations {
            do {
                try HTTPServer.checkAvailable(host: operations.host, port: operations.port)
            } catch {
                throw DevStartError(message: "cannot run the operations listener (metrics) on \(operations.host):\(operations.port): \(error.message). Choose another address with LEDGER_METRICS_ADDRESS=127.0.0.1:9465, or LEDGER_METRICS_ADDRESS=off")
            }
        }
        let operationsURL = operations.map { "http://\($0.host):\($0.port)" }

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
        let consoleEnvironment = ["DATABASE_URL": consoleDatabaseURL, "LEDGER_CONSOLE_SECRET": consoleSecret,
                                  "LEDGER_CONSOLE_ADDRESS": consoleAddress]
        var projector: [String: String] = ["DATABASE_URL": projectorURL, "LEDGER_WEBHOOK_KEY": webhookKey]
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
                bundleID: try environment.require(.appStoreBundleID), notificationURL: "http://\(host):\(port)/v1/appstore/notifications/sandbox")
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
            let standIn = try DevStripeStandIn.start(dataDirectory: dataDirectory, app: DemoData.catalogApp, baseURL: "http://\(host):\(port)")
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

        let baseURL = "http://\(host):\(port)"
        // The console too, when it runs: the banner promises both.
        guard waitForHealth(host: host, port: port, children: children),
              console.map({ waitForHealth(host: $0.host, port: $0.port, path: "/login", children: children) }) ?? true else {
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
        print("""

            ledger is running at \(baseURL)
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
