import API
import AppStore
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import Observability
import Outbound
import WebhookSigning

extension LedgerEnvironment {
    /// The JSON-lines logger every long-running command writes with.
    public func logger(component: String) throws -> Logger {
        let text = string(.logLevel) ?? "info"
        guard let level = Logger.Level(parsing: text) else {
            throw ConfigurationError(setting: .logLevel, problem: "must be debug, info, warning or error, got \(text)")
        }
        return Logger(minimumLevel: level).with(["component": .string(component)])
    }

    /// The login of the commands typed at the keyboard (`ledger admin`, `log`, `verify`, …):
    /// DATABASE_URL; else the developer's own login on the dev cluster `ledger dev` left in
    /// LEDGER_DATA_DIR (said on standard error); else an error that says what to do.
    public func databaseURL() throws -> String {
        try databaseURL(orDev: .operator)
    }

    /// The API's login (`ledger serve`): DATABASE_URL; else the dev cluster's, in ledger_service.
    public func serviceDatabaseURL() throws -> String {
        try databaseURL(orDev: .service)
    }

    /// The console's login (`ledger console`): DATABASE_URL; else the dev cluster's, in
    /// ledger_console.
    public func consoleDatabaseURL() throws -> String {
        try databaseURL(orDev: .console)
    }

    /// DATABASE_URL; else, in a clone where `ledger dev` ran, its cluster's URL for
    /// `login` (the developer's own for the commands typed at the keyboard, whose acts are
    /// recorded under it; the API's login when a demo.json older than the per-surface
    /// logins has no such field).
    private func databaseURL(orDev login: DevLogin) throws -> String {
        if let url = string(.databaseURL) { return url }
        if let url = devClusterURL(login) ?? devClusterURL(.service) { return url }
        var problem = "is not set, and \(devClusterSearchDescription()): point it at PostgreSQL (postgresql://user@host:port/db), or run `make run` (`ledger dev`) in the clone, which creates a local database that commands run in any folder of the clone then find by themselves"
        if !dataDirectoryIsSet, let clone = Self.executableCloneRoot, FileManager.default.fileExists(atPath: clone + "/.ledger/demo.json"),
           !dataDirectoryCandidates().contains(clone + "/.ledger") {
            problem += ". The clone this ledger was built in has one: run the command in \(clone), or set LEDGER_DATA_DIR=\(clone)/.ledger"
        }
        throw ConfigurationError(setting: .databaseURL, problem: problem)
    }

    /// The projector's login (it alone writes the projections, migration 0011):
    /// LEDGER_PROJECTOR_DATABASE_URL; else DATABASE_URL; else the dev cluster's projector.
    public func projectorDatabaseURL() throws -> String {
        if let url = string(.projectorDatabaseURL) { return url }
        if string(.databaseURL) == nil, let url = devClusterURL(.projector) { return url }
        return try databaseURL()
    }

    /// LEDGER_READ_DATABASE_URLS: the read replicas, none when unset or empty.
    public func readReplicaURLs() throws -> [String] {
        guard let text = string(.readDatabaseURLs) else { return [] }
        let urls = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for url in urls where !(url.hasPrefix("postgresql://") || url.hasPrefix("postgres://")) {
            throw ConfigurationError(setting: .readDatabaseURLs, problem: "wants comma-separated postgresql:// URLs; one entry is not (it is not repeated here: it may hold a password)")
        }
        return urls
    }

    /// The URL migrations run with: LEDGER_MIGRATION_DATABASE_URL, else DATABASE_URL (its
    /// direct twin, LEDGER_DIRECT_DATABASE_URL, when set: migrations hold a session lock),
    /// else the dev cluster's owner (the service's role may not change the schema).
    public func migrationDatabaseURL() throws -> String {
        if let url = string(.migrationDatabaseURL) { return url }
        if string(.databaseURL) == nil, let url = devClusterURL(.owner) { return url }
        return try directDatabaseURL(for: databaseURL())
    }

    /// The migrations this build applies and checks, from `migrationsDirectory()`.
    public func migrations() throws -> [Migration] {
        try Migration.load(from: try migrationsDirectory())
    }
}

extension LedgerEnvironment {
    /// The profile the process runs under, and why (docs/security.md): LEDGER_ENVIRONMENT
    /// when set (anything but `production` or `development` is an error); else development
    /// for a command that uses the dev cluster `ledger dev` described (DATABASE_URL unset,
    /// LEDGER_DATA_DIR/demo.json present); else production.
    public func profile() throws(DeploymentProfile.UnknownProfile) -> (profile: DeploymentProfile, source: DeploymentProfile.Source) {
        if let text = values[Setting.environment.name], !text.isEmpty {
            return (try DeploymentProfile(parsing: text), .setting)
        }
        if devCluster() != nil { return (.development, .devCluster) }
        return (.production, .unset)
    }

    /// The first line a long-running process logs: the profile it runs under and why; then
    /// a warning for each setting the profile ignores, so that nobody believes it in force.
    public func announceProfile(_ logger: Logger) throws {
        let (profile, source) = try self.profile()
        logger.info("profile \(profile.rawValue)", ["profile": .string(profile.rawValue), "profile_source": .string(source.rawValue)])
        for warning in ignoredSettings() {
            logger.warning(warning.message, ["setting": .string(warning.setting.name)])
        }
    }

    /// The settings that are set but ignored under this profile, and what to say of each.
    func ignoredSettings() -> [(setting: Setting, message: String)] {
        guard isProduction, let roots = string(.appStoreExtraRoots) else { return [] }
        let count = roots.split(separator: ":").filter { !$0.isEmpty }.count
        return [(.appStoreExtraRoots, "LEDGER_APPSTORE_EXTRA_ROOTS is set (\(count) file\(count == 1 ? "" : "s")) but ignored: the production profile trusts Apple Root CA - G3 alone for App Store signatures; unset it, or run the development profile (LEDGER_ENVIRONMENT=development) to trust test roots")]
    }

    /// Whether the process runs under the production profile. Fails closed: an unknown
    /// LEDGER_ENVIRONMENT is production here (and a startup error in `LedgerMain`).
    public var isProduction: Bool { (try? profile().profile) != .development }

    /// The key that signs journal cursors: LEDGER_CURSOR_SECRET, or outside production a
    /// random one for this process.
    public func cursorSecret(logger: Logger) throws -> [UInt8] {
        if let secret = string(.cursorSecret) {
            guard secret.utf8.count >= 32 else {
                throw ConfigurationError(setting: .cursorSecret, problem: "must be at least 32 characters")
            }
            return Array(secret.utf8)
        }
        if isProduction {
            throw ConfigurationError(setting: .cursorSecret, problem: "is required in production (journal cursors must survive restarts)")
        }
        logger.warning("LEDGER_CURSOR_SECRET is not set: journal cursors will not survive a restart")
        return SecureRandom.bytes(32)
    }
}

extension LedgerEnvironment {
    /// A listener on `host:port` with the limits the settings give (threads, queue, sizes,
    /// timeouts, connections in all and per address, trusted proxies): the API's, and the
    /// console's with fewer threads.
    public func serverConfiguration(host: String, port: Int) throws -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: host, port: port, threads: try positiveInt(.httpThreads),
            networkThreads: try positiveInt(.networkThreads),
            maxQueuedRequests: try positiveInt(.maxQueuedRequests),
            maxRequestsPerClient: try positiveInt(.maxRequestsPerClient),
            maxBodyBytes: try positiveInt(.maxBodyBytes), maxHeaderBytes: try positiveInt(.maxHeaderBytes),
            connectionTimeoutSeconds: try positiveInt(.connectionTimeout),
            requestHeadTimeoutSeconds: try positiveSeconds(.requestHeadTimeout),
            requestBodyTimeoutSeconds: try positiveSeconds(.requestBodyTimeout),
            maxConnections: try positiveInt(.maxConnections),
            maxConnectionsPerAddress: try positiveInt(.maxConnectionsPerAddress),
            trustedProxies: try trustedProxies())
    }

    /// The console's address when LEDGER_CONSOLE_ADDRESS is unset.
    public static let defaultConsoleAddress = "127.0.0.1:8081"

    /// Where the console listens: LEDGER_CONSOLE_ADDRESS, else 127.0.0.1:8081 (outside
    /// production, or `always`: `ledger console` runs for nothing else); nil when it is off.
    public func consoleAddress(always: Bool = false) throws -> (host: String, port: Int)? {
        guard let text = string(.consoleAddress) ?? (isProduction && !always ? nil : Self.defaultConsoleAddress), text != "off"
        else { return nil }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port),
              colon != text.startIndex else {
            throw ConfigurationError(setting: .consoleAddress, problem: "must be HOST:PORT or off, got \(text.debugDescription)")
        }
        return (String(text[..<colon]), port)
    }

    /// The key the console derives its forms' CSRF tokens from: LEDGER_CONSOLE_SECRET,
    /// else (outside production) a random one per process.
    public func consoleSecret(logger: Logger) throws -> [UInt8] {
        if let secret = string(.consoleSecret) {
            guard secret.utf8.count >= 32 else { throw ConfigurationError(setting: .consoleSecret, problem: "must be at least 32 characters") }
            return Array(secret.utf8)
        }
        if isProduction {
            throw ConfigurationError(setting: .consoleSecret, problem: "is required in production when the console runs (LEDGER_CONSOLE_ADDRESS)")
        }
        logger.warning("LEDGER_CONSOLE_SECRET is not set: forms open in the console when it restarts must be reloaded (sessions survive: they are rows)")
        return SecureRandom.bytes(32)
    }
}

extension LedgerEnvironment {
    /// The console's settings for its listener at `address` (docs/security.md): its secret,
    /// session timeouts, the host names it answers to, and the projector's login for its
    /// rebuilds.
    public func consoleSettings(address: (host: String, port: Int), logger: Logger) throws -> ConsoleSettings {
        var settings = ConsoleSettings(secret: try consoleSecret(logger: logger))
        settings.idleTimeout = Double(try positiveInt(.consoleIdleMinutes)) * 60
        settings.sessionLifetime = Double(try positiveInt(.consoleSessionHours)) * 3600
        guard settings.idleTimeout <= settings.sessionLifetime else {
            throw ConfigurationError(setting: .consoleIdleMinutes, problem: "is longer than LEDGER_CONSOLE_SESSION_HOURS")
        }
        var hosts: Set<String> = []
        let listening = address.host.lowercased()
        if ["127.0.0.1", "::1", "localhost"].contains(listening) {
            hosts = ["127.0.0.1", "localhost", "[::1]"]
        } else if !["0.0.0.0", "::", ""].contains(listening) {
            hosts.insert(listening.contains(":") ? "[\(listening)]" : listening)
        }
        if let text = string(.consoleURL) {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  let host = url.host, !host.isEmpty, url.user == nil else {
                throw ConfigurationError(setting: .consoleURL, problem: "must be an http:// or https:// URL with a host, got \(text.debugDescription)")
            }
            if isProduction, scheme != "https" {
                throw ConfigurationError(setting: .consoleURL, problem: "must be https in production: the session cookie crosses the network")
            }
            settings.https = scheme == "https"
            hosts.insert(host.contains(":") && !host.hasPrefix("[") ? "[\(host.lowercased())]" : host.lowercased())
        }
        guard !hosts.isEmpty else {
            throw ConfigurationError(setting: .consoleURL, problem: "is needed when the console listens on every address (\(address.host)): it names the host operators open it at")
        }
        // Listening on every address includes loopback: a browser on the same machine (or
        // through a container's published port, or an SSH tunnel) opens it as 127.0.0.1 or
        // localhost. Those names are safe to accept: a rebinding attacker's page is sent
        // with the attacker's own host name, never a loopback one.
        if ["0.0.0.0", "::", ""].contains(listening) { hosts.formUnion(["127.0.0.1", "localhost", "[::1]"]) }
        settings.allowedHosts = hosts
        settings.projectorConninfo = string(.projectorDatabaseURL)
        return settings
    }

    /// LEDGER_TRUSTED_PROXIES.
    public func trustedProxies() throws -> TrustedProxies {
        do {
            return try TrustedProxies(parsing: string(.trustedProxies) ?? "")
        } catch {
            throw ConfigurationError(setting: .trustedProxies, problem: "holds \(error)")
        }
    }
}

extension LedgerEnvironment {
    /// The key webhook secrets are derived from: LEDGER_WEBHOOK_KEY, else (outside
    /// production) the one `ledger dev` keeps in LEDGER_DATA_DIR; nil when there is none.
    public func webhookSecrets() throws -> WebhookSecrets? {
        if let key = string(.webhookKey) {
            guard key.utf8.count >= 32 else { throw ConfigurationError(setting: .webhookKey, problem: "must be at least 32 characters") }
            return WebhookSecrets(key: Array(key.utf8))
        }
        guard !isProduction, let text = try? String(contentsOfFile: devDataDirectory() + "/webhook-key", encoding: .utf8) else { return nil }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return key.utf8.count >= 32 ? WebhookSecrets(key: Array(key.utf8)) : nil
    }

    /// Where outbound requests (webhooks) may go: public https only in production.
    public var outboundPolicy: OutboundPolicy { isProduction ? .production : .development }
}

extension LedgerEnvironment {
    /// The App Store surfaces' settings from the environment.
    public func appStoreSettings(logger: Logger) throws -> AppStoreSettings {
        var secret: [UInt8] = []
        if let text = string(.sessionSecret) {
            guard text.utf8.count >= 32 else { throw ConfigurationError(setting: .sessionSecret, problem: "must be at least 32 characters") }
            secret = Array(text.utf8)
        } else {
            logger.warning("LEDGER_SESSION_SECRET is not set: no session is accepted, the App Store offer and transactions answer 401")
        }
        let products = try appStorePlanProducts()
        let domains = string(.schoolDomains).map { SchoolDomains(suffixes: $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        return AppStoreSettings(bundleID: try require(.appStoreBundleID), products: products,
                                schoolDomains: domains ?? .defaults, sessionSecret: secret,
                                publicOrigin: try require(.publicOrigin), notificationsPerSecond: try double(.notificationRate),
                                policy: try appStorePolicy())
    }

    /// The App Store product of each plan (LEDGER_APPSTORE_PRODUCTS, O6).
    public func appStorePlanProducts() throws -> [Plan: String] {
        var products: [Plan: String] = [:]
        for pair in (string(.appStoreProducts) ?? "").split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, let plan = Plan(rawValue: kv[0]), Plan.purchasable.contains(plan), !kv[1].isEmpty else {
                throw ConfigurationError(setting: .appStoreProducts, problem: "must be plan=product_id pairs for plus, education, premium; got \(pair)")
            }
            products[plan] = kv[1]
        }
        return products
    }

    /// The trust policy the environment configures: production (LEDGER_ENVIRONMENT, or
    /// `forceProduction`) trusts Apple Root CA - G3 alone; elsewhere the roots of
    /// LEDGER_APPSTORE_EXTRA_ROOTS are trusted too.
    public func appStorePolicy(forceProduction: Bool = false, alsoTrusting more: [[UInt8]] = []) throws -> AppStoreEnvironmentPolicy {
        if forceProduction || isProduction { return .production }
        var roots: [[UInt8]] = more
        for path in (string(.appStoreExtraRoots) ?? "").split(separator: ":").map(String.init) where !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(setting: .appStoreExtraRoots, problem: "names \(path), which cannot be read")
            }
            guard let certificates = AppStoreRootCertificates.certificates(in: [UInt8](data)) else {
                throw ConfigurationError(setting: .appStoreExtraRoots, problem: "names \(path), which holds no DER or PEM certificate")
            }
            roots += certificates
        }
        return .development(extraRoots: roots)
    }

}
