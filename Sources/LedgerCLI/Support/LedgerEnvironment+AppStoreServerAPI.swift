import AppStore
import AppStoreServerAPI
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

extension LedgerEnvironment {
    /// The App Store Server API configurations of LEDGER_APPSTORE_API_KEYS (empty when it is
    /// unset): a JSON file
    ///
    ///     {"apps": [{"bundle_id": "ai.screenrig.app", "environment": "production",
    ///                "issuer_id": "…", "key_id": "ABC123DEFG", "private_key_file": "AuthKey_ABC123DEFG.p8",
    ///                "app_apple_id": 1234567890}]}
    ///
    /// `environment` is `production` or `sandbox`, or, outside production, `local` with a
    /// `base_url` (a stand-in, trusted under the development policy). A relative
    /// `private_key_file` is read beside the JSON file. Every problem names the entry and
    /// the field, and nothing of a key is ever printed.
    public func appStoreServerAPIConfigurations() throws -> [AppStoreServerAPIConfiguration] {
        try appStoreAPIApps().map(\.configuration)
    }

    /// Each entry of LEDGER_APPSTORE_API_KEYS: its client's configuration and what it says
    /// about refund requests, `consumption_consent` (a boolean, false when absent: the app's
    /// customers consented to share consumption information with Apple) and
    /// `consumption_refund_preference` (Apple's `refundPreference`, 0–3, 0 when absent).
    public func appStoreAPIApps() throws -> [(configuration: AppStoreServerAPIConfiguration, consumption: ConsumptionPolicy)] {
        guard let path = string(.appStoreAPIKeys) ?? devStandInKeysFile else { return [] }
        func problem(_ text: String) -> ConfigurationError { ConfigurationError(setting: .appStoreAPIKeys, problem: text) }
        guard let data = FileManager.default.contents(atPath: path) else { throw problem("names \(path), which cannot be read") }
        guard let document = try? JSONValue.parse(Array(data)), let apps = document["apps"]?.arrayValue else {
            throw problem("names \(path), which is not a JSON object with an \"apps\" array")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        var seen: Set<String> = []
        return try apps.enumerated().map { index, app in
            func field(_ name: String) throws -> String {
                guard let value = app[name]?.stringValue, !value.isEmpty else {
                    throw problem("apps[\(index)] has no \(name) (a non-empty string)")
                }
                return value
            }
            let bundleID = try field("bundle_id")
            let environmentName = try field("environment")
            let environment: AppStoreServerAPIEnvironment
            var policy = AppStoreEnvironmentPolicy.production
            switch environmentName {
            case "production": environment = .production
            case "sandbox": environment = .sandbox
            case "local" where !isProduction:
                environment = .local(baseURL: try field("base_url"))
                policy = try appStorePolicy()
                // The root a stand-in signs with (`ledger dev`'s development authority), trusted
                // for this entry alone.
                if let rootFile = app["trusted_root_file"]?.stringValue {
                    let rootURL = rootFile.hasPrefix("/") ? URL(fileURLWithPath: rootFile) : directory.appendingPathComponent(rootFile)
                    guard let data = FileManager.default.contents(atPath: rootURL.path),
                          let roots = AppStoreRootCertificates.certificates(in: [UInt8](data)) else {
                        throw problem("apps[\(index)] (\(try field("bundle_id"))): trusted_root_file \(rootURL.path) holds no DER or PEM certificate")
                    }
                    policy = try appStorePolicy(alsoTrusting: roots)
                }
            case "local": throw problem("apps[\(index)] (\(bundleID)): a local stand-in is refused in production")
            default: throw problem("apps[\(index)] (\(bundleID)): environment must be production or sandbox, got \(environmentName.debugDescription)")
            }
            guard seen.insert(bundleID + " " + environmentName).inserted else {
                throw problem("apps[\(index)]: \(bundleID) in \(environmentName) is configured twice")
            }
            let keyPath = try field("private_key_file")
            let keyURL = keyPath.hasPrefix("/") ? URL(fileURLWithPath: keyPath) : directory.appendingPathComponent(keyPath)
            guard let keyData = FileManager.default.contents(atPath: keyURL.path) else {
                throw problem("apps[\(index)] (\(bundleID)): private_key_file \(keyURL.path) cannot be read")
            }
            let credentials: AppStoreServerAPICredentials
            do {
                credentials = try AppStoreServerAPICredentials(issuerID: try field("issuer_id"), keyID: try field("key_id"), bundleID: bundleID,
                                                               privateKeyPEM: String(decoding: keyData, as: UTF8.self))
            } catch let error as AppStoreServerAPIError {
                throw problem("apps[\(index)] (\(bundleID)): private_key_file \(keyURL.path) is not an In-App Purchase key (\(error.code))")
            }
            var appAppleID: Int64?
            if let value = app["app_apple_id"], value != .null {
                guard let id = value.int64Value, id > 0 else { throw problem("apps[\(index)] (\(bundleID)): app_apple_id must be a positive integer") }
                appAppleID = id
            }
            var consumption = ConsumptionPolicy()
            if let value = app["consumption_consent"], value != .null {
                guard let consent = value.boolValue else {
                    throw problem("apps[\(index)] (\(bundleID)): consumption_consent must be true or false")
                }
                consumption.consent = consent
            }
            if let value = app["consumption_refund_preference"], value != .null {
                guard let preference = value.int64Value, (0...3).contains(preference) else {
                    throw problem("apps[\(index)] (\(bundleID)): consumption_refund_preference must be 0 (undeclared), 1 (grant), 2 (decline) or 3 (no preference)")
                }
                consumption.refundPreference = Int(preference)
            }
            return (AppStoreServerAPIConfiguration(credentials: credentials, environment: environment, appAppleID: appAppleID,
                                                   verificationPolicy: policy), consumption)
        }
    }
}

extension LedgerEnvironment {
    /// The keys file `ledger dev` writes for its stand-in for Apple, which commands run in its
    /// clone find when LEDGER_APPSTORE_API_KEYS is unset (never in production).
    public static let devStandInKeysFile = "appstore-standin/keys.json"

    var devStandInKeysFile: String? {
        guard !isProduction else { return nil }
        let path = devDataDirectory() + "/" + Self.devStandInKeysFile
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The notification history sync's schedule: LEDGER_APPSTORE_SYNC_EVERY seconds between
    /// runs (at least 10), each window starting 15 minutes before the last one ended.
    public func appStoreSyncSettings() throws -> AppStoreHistorySync.Settings {
        let every = try double(.appStoreSyncEvery)
        guard every >= 10 else {
            throw ConfigurationError(setting: .appStoreSyncEvery, problem: "must be at least 10 (seconds), got \(string(.appStoreSyncEvery) ?? "")")
        }
        return AppStoreHistorySync.Settings(every: every, retryAfterError: min(300, every))
    }

    /// A sync for each app of LEDGER_APPSTORE_API_KEYS, its client on this process's clock.
    /// `actor`: who records what is recovered (the job: Apple's history; a command: the operator).
    public func appStoreHistorySyncs(connections: PostgresPool, store: EventStore, actor: Actor? = nil) throws -> [AppStoreHistorySync] {
        let configurations = try appStoreServerAPIConfigurations()
        guard !configurations.isEmpty else { return [] }
        let settings = try appStoreSyncSettings()
        let products = AppStoreProducts(try appStorePlanProducts())
        return configurations.map { configuration in
            let client = AppStoreServerAPIClient(configuration: configuration, clock: { Date() })
            return AppStoreHistorySync(client: client, settings: settings, connections: connections, store: store, products: products,
                                       actor: actor ?? Actor(.apple, "notification-history"), now: SystemClock.now)
        }
    }

    /// The answerer of refund requests over the clients of `syncs` (made from
    /// LEDGER_APPSTORE_API_KEYS, in its order), each with its entry's consent and refund
    /// preference; nil without keys.
    public func appStoreConsumptionResponder(syncs: [AppStoreHistorySync], connections: PostgresPool,
                                             store: EventStore) throws -> AppStoreConsumptionResponder? {
        guard !syncs.isEmpty else { return nil }
        let entries = try appStoreAPIApps()
        let apps = syncs.map { sync in
            let configuration = sync.client.configuration
            let policy = entries.first {
                $0.configuration.credentials.bundleID == configuration.credentials.bundleID
                    && $0.configuration.environment.baseURL == configuration.environment.baseURL
            }?.consumption ?? ConsumptionPolicy()
            return AppStoreConsumptionResponder.App(client: sync.client, policy: policy)
        }
        return AppStoreConsumptionResponder(apps: apps, connections: connections, store: store, now: SystemClock.now)
    }
}
