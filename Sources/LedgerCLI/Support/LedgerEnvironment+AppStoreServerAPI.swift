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
            return AppStoreServerAPIConfiguration(credentials: credentials, environment: environment, appAppleID: appAppleID,
                                                  verificationPolicy: policy)
        }
    }
}

extension LedgerEnvironment {
    /// The keys file `ledger dev` writes for its stand-in for Apple, which commands run in its
    /// clone find when LEDGER_APPSTORE_API_KEYS is unset (never in production).
    public static let devStandInKeysFile = "appstore-standin/keys.json"

    var devStandInKeysFile: String? {
        guard !isProduction, let directory = string(.dataDirectory) else { return nil }
        let path = directory + "/" + Self.devStandInKeysFile
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
}
