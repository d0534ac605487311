import AppStore
import AppStoreServerAPI
import Crypto
import Foundation
import LedgerCLI
import LedgerDomain
import Testing
import TestSupport

/// LEDGER_APPSTORE_API_KEYS: the In-App Purchase keys the ledger asks Apple with, one per
/// app and environment, read from a JSON file (docs/appstore-server-api.md).
@Suite("The App Store Server API's keys, from configuration", .bounded)
struct AppStoreAPIKeysTests {
    /// A directory with a `.p8` key and `keys.json` holding `apps`; the file's path.
    static func keysFile(_ apps: [String]) throws -> String {
        let directory = ScratchFile.directory + "/keys-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let key = PEM.encode(AppStoreSigningKey().pkcs8DER, label: "PRIVATE KEY")
        try key.write(toFile: directory + "/AuthKey_ABC123DEFG.p8", atomically: true, encoding: .utf8)
        try "not a key".write(toFile: directory + "/broken.p8", atomically: true, encoding: .utf8)
        let path = directory + "/keys.json"
        try "{\"apps\": [\(apps.joined(separator: ","))]}".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let production = #"{"bundle_id": "ai.screenrig.app", "environment": "production", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a", "key_id": "ABC123DEFG", "private_key_file": "AuthKey_ABC123DEFG.p8", "app_apple_id": 1234567890}"#

    static func environment(_ path: String, profile: String = "production") -> LedgerEnvironment {
        LedgerEnvironment(["LEDGER_ENVIRONMENT": profile, "LEDGER_APPSTORE_API_KEYS": path])
    }

    @Test("an app's key, its ids and its environment become a configuration; the key file is read beside the JSON file")
    func reads() throws {
        let sandbox = Self.production.replacingOccurrences(of: "\"production\"", with: "\"sandbox\"")
        let configurations = try Self.environment(try Self.keysFile([Self.production, sandbox])).appStoreServerAPIConfigurations()
        #expect(configurations.count == 2)
        let first = try #require(configurations.first)
        #expect(first.credentials.bundleID == "ai.screenrig.app" && first.credentials.keyID == "ABC123DEFG")
        #expect(first.environment.baseURL == AppStoreServerAPIEnvironment.production.baseURL && first.appAppleID == 1_234_567_890)
        #expect(first.outboundPolicy == .production)
        #expect(configurations[1].environment.baseURL == AppStoreServerAPIEnvironment.sandbox.baseURL)
        #expect(try LedgerEnvironment(["LEDGER_ENVIRONMENT": "production"]).appStoreServerAPIConfigurations().isEmpty, "unset: none")
    }

    @Test("every mistake names the entry and the field, and never prints a key", arguments: [
        (#"{"bundle_id": "b", "environment": "production", "issuer_id": "i", "key_id": "k"}"#, "apps[0] has no private_key_file"),
        (#"{"bundle_id": "b", "environment": "staging", "issuer_id": "i", "key_id": "k", "private_key_file": "AuthKey_ABC123DEFG.p8"}"#,
         "environment must be production or sandbox"),
        (#"{"bundle_id": "b", "environment": "production", "issuer_id": "i", "key_id": "k", "private_key_file": "broken.p8"}"#,
         "is not an In-App Purchase key"),
        (#"{"bundle_id": "b", "environment": "production", "issuer_id": "i", "key_id": "k", "private_key_file": "missing.p8"}"#,
         "cannot be read"),
        (#"{"bundle_id": "b", "environment": "local", "base_url": "http://127.0.0.1:1", "issuer_id": "i", "key_id": "k", "private_key_file": "AuthKey_ABC123DEFG.p8"}"#,
         "a local stand-in is refused in production"),
        (#"{"bundle_id": "b", "environment": "production", "issuer_id": "i", "key_id": "k", "private_key_file": "AuthKey_ABC123DEFG.p8", "app_apple_id": -1}"#,
         "app_apple_id must be a positive integer"),
        (#"{"bundle_id": "b", "environment": "production", "issuer_id": "i", "key_id": "k", "private_key_file": "AuthKey_ABC123DEFG.p8", "consumption_consent": "yes"}"#,
         "apps[0] (b): consumption_consent must be true or false"),
        (#"{"bundle_id": "b", "environment": "production", "issuer_id": "i", "key_id": "k", "private_key_file": "AuthKey_ABC123DEFG.p8", "consumption_refund_preference": 4}"#,
         "apps[0] (b): consumption_refund_preference must be 0 (undeclared), 1 (grant), 2 (decline) or 3 (no preference)"),
    ])
    func mistakes(_ entry: String, _ said: String) throws {
        let error = try #require(throws: LedgerEnvironment.ConfigurationError.self) {
            try Self.environment(try Self.keysFile([entry])).appStoreServerAPIConfigurations()
        }
        #expect(error.description.contains("LEDGER_APPSTORE_API_KEYS") && error.description.contains(said), "\(error)")
        #expect(!error.description.contains("PRIVATE KEY"))
    }

    @Test("consent to share consumption information is a setting per app, off unless its entry says true; the refund preference 0 unless set")
    func consumptionConsent() throws {
        let consenting = Self.production.replacingOccurrences(of: "}", with: #", "consumption_consent": true, "consumption_refund_preference": 2}"#)
        let sandbox = Self.production.replacingOccurrences(of: "\"production\"", with: "\"sandbox\"")
            .replacingOccurrences(of: "}", with: #", "consumption_consent": false}"#)
        let other = Self.production.replacingOccurrences(of: "ai.screenrig.app", with: "ai.screenrig.other")
        let apps = try Self.environment(try Self.keysFile([consenting, sandbox, other])).appStoreAPIApps()
        #expect(apps.map(\.consumption) == [ConsumptionPolicy(consent: true, refundPreference: 2), ConsumptionPolicy(), ConsumptionPolicy()])
        #expect(apps.map(\.configuration.credentials.bundleID) == ["ai.screenrig.app", "ai.screenrig.app", "ai.screenrig.other"])
    }

    @Test("the same app and environment twice is refused; a local stand-in is allowed outside production")
    func duplicatesAndStandIns() throws {
        #expect(throws: LedgerEnvironment.ConfigurationError.self) {
            try Self.environment(try Self.keysFile([Self.production, Self.production])).appStoreServerAPIConfigurations()
        }
        let local = #"{"bundle_id": "b", "environment": "local", "base_url": "http://127.0.0.1:9", "issuer_id": "i", "key_id": "k", "private_key_file": "AuthKey_ABC123DEFG.p8"}"#
        let configurations = try Self.environment(try Self.keysFile([local]), profile: "development").appStoreServerAPIConfigurations()
        #expect(configurations.first?.outboundPolicy == .development)
    }
}
