import AppStore
import Crypto
import Foundation
import LedgerCLI
import Observability
import Testing
import TestSupport

/// LEDGER_APPSTORE_OFFER_KEYS: the promotional offer keys `ledger serve` signs with, one per
/// bundle ID, read from a JSON file (docs/appstore.md, "Promotional offer signatures").
@Suite("The promotional offer keys, from configuration", .bounded)
struct AppStoreOfferKeysTests {
    /// A directory with a P-256 `.p8` key, a P-384 one and a file that is no key, and
    /// `offer-keys.json` holding `apps`; the file's path and the good key's PEM text.
    static func keysFile(_ apps: [String]) throws -> (path: String, pem: String) {
        let directory = ScratchFile.directory + "/offer-keys-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pem = PEM.encode(AppStoreSigningKey().pkcs8DER, label: "PRIVATE KEY")
        try pem.write(toFile: directory + "/SubscriptionKey_OFFER12345.p8", atomically: true, encoding: .utf8)
        try PEM.encode(AppStoreSigningKey(curve: "P-384").pkcs8DER, label: "PRIVATE KEY")
            .write(toFile: directory + "/p384.p8", atomically: true, encoding: .utf8)
        try "not a key".write(toFile: directory + "/broken.p8", atomically: true, encoding: .utf8)
        let path = directory + "/offer-keys.json"
        try "{\"apps\": [\(apps.joined(separator: ","))]}".write(toFile: path, atomically: true, encoding: .utf8)
        return (path, pem)
    }

    static func entry(bundle: String = "ai.screenrig.app", keyID: String = "OFFER12345", file: String = "SubscriptionKey_OFFER12345.p8") -> String {
        #"{"bundle_id": "\#(bundle)", "key_id": "\#(keyID)", "private_key_file": "\#(file)"}"#
    }

    static func environment(_ path: String, profile: String = "production") -> LedgerEnvironment {
        LedgerEnvironment(["LEDGER_ENVIRONMENT": profile, "LEDGER_APPSTORE_OFFER_KEYS": path])
    }

    @Test("each entry becomes a signer for its bundle ID; a key file is read beside the JSON file or by its absolute path; unset is none")
    func reads() throws {
        let directory = ScratchFile.directory + "/offer-keys-abs-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PEM.encode(AppStoreSigningKey().pkcs8DER, label: "PRIVATE KEY").write(toFile: directory + "/k.p8", atomically: true, encoding: .utf8)
        let file = try Self.keysFile([Self.entry(), Self.entry(bundle: "com.example.other", keyID: "OTHER12345", file: directory + "/k.p8")])
        let signers = try Self.environment(file.path).promotionalOfferSigners()
        #expect(signers.map(\.bundleID) == ["ai.screenrig.app", "com.example.other"])
        #expect(signers.map(\.keyID) == ["OFFER12345", "OTHER12345"])
        #expect(signers[0].key.pkcs8DER == PEM.blocks("PRIVATE KEY", in: file.pem)?.first, "the key of the file named")
        #expect(try LedgerEnvironment(["LEDGER_ENVIRONMENT": "production"]).promotionalOfferSigners().isEmpty, "unset: none")
    }

    @Test("every mistake names the setting, the entry and the field, and never prints a key", arguments: [
        (#"{"key_id": "OFFER12345", "private_key_file": "SubscriptionKey_OFFER12345.p8"}"#, "apps[0] has no bundle_id"),
        (#"{"bundle_id": "b", "private_key_file": "SubscriptionKey_OFFER12345.p8"}"#, "apps[0] has no key_id"),
        (#"{"bundle_id": "b", "key_id": "OFFER12345"}"#, "apps[0] has no private_key_file"),
        (#"{"bundle_id": "b", "key_id": "", "private_key_file": "SubscriptionKey_OFFER12345.p8"}"#, "apps[0] has no key_id"),
        (#"{"bundle_id": 7, "key_id": "OFFER12345", "private_key_file": "SubscriptionKey_OFFER12345.p8"}"#, "apps[0] has no bundle_id"),
        (AppStoreOfferKeysTests.entry(keyID: "offer-key"), "key_id \"offer-key\" is not a key ID (invalid_key_id)"),
        (AppStoreOfferKeysTests.entry(bundle: "ai.screenrig app"), "bundle_id \"ai.screenrig app\" cannot be signed (invalid_bundle_id)"),
        (AppStoreOfferKeysTests.entry(file: "missing.p8"), "missing.p8 cannot be read"),
        (AppStoreOfferKeysTests.entry(file: "broken.p8"), "broken.p8 is not an In-App Purchase key (invalid_private_key)"),
        (AppStoreOfferKeysTests.entry(file: "p384.p8"), "p384.p8 is not an In-App Purchase key (invalid_private_key)"),
        ("42", "apps[0] is not a JSON object"),
    ])
    func mistakes(_ entry: String, _ said: String) throws {
        let file = try Self.keysFile([entry])
        let error = try #require(throws: LedgerEnvironment.ConfigurationError.self) {
            try Self.environment(file.path).promotionalOfferSigners()
        }
        #expect(error.description.hasPrefix("LEDGER_APPSTORE_OFFER_KEYS ") && error.description.contains(said), "\(error)")
        Self.expectNoKey(in: error.description, pem: file.pem)
    }

    @Test("a file that cannot be read, is not JSON, has no apps array, or names a bundle ID twice is refused")
    func theFileItself() throws {
        let missing = ScratchFile.directory + "/no-such-offer-keys-\(UUID().uuidString).json"
        let unreadable = try #require(throws: LedgerEnvironment.ConfigurationError.self) { try Self.environment(missing).promotionalOfferSigners() }
        #expect(unreadable.description.contains("\(missing), which cannot be read"))
        for text in ["not json", #"{"keys": []}"#, "[]"] {
            let path = ScratchFile.directory + "/offer-keys-\(UUID().uuidString).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: LedgerEnvironment.ConfigurationError.self) { try Self.environment(path).promotionalOfferSigners() }
            #expect(error.description.contains("is not a JSON object with an \"apps\" array"), "\(error)")
        }
        let twice = try Self.keysFile([Self.entry(), Self.entry(keyID: "OTHER12345")])
        let error = try #require(throws: LedgerEnvironment.ConfigurationError.self) { try Self.environment(twice.path).promotionalOfferSigners() }
        #expect(error.description.contains("apps[1]: ai.screenrig.app is configured twice"), "\(error)")
        Self.expectNoKey(in: error.description, pem: twice.pem)
    }

    @Test("the offer keys are ledger serve's own: production's check passes them, and ledger dev gives them to the API alone")
    func heldByServe() throws {
        let file = try Self.keysFile([Self.entry()])
        #expect(SecretPlacement.misplacedForServe(in: Self.environment(file.path)).isEmpty)
        #expect(throws: Never.self) { try SecretPlacement.checkServe(Self.environment(file.path), logger: Logger(sink: MemoryLogSink())) }
        let children = DevChildEnvironments(parent: ["PATH": "/usr/bin", "LEDGER_APPSTORE_OFFER_KEYS": "/exported.json"],
                                            api: ["LEDGER_APPSTORE_OFFER_KEYS": file.path], console: [:], projector: [:])
        #expect(children.api["LEDGER_APPSTORE_OFFER_KEYS"] == file.path)
        #expect(children.console["LEDGER_APPSTORE_OFFER_KEYS"] == nil && children.projector["LEDGER_APPSTORE_OFFER_KEYS"] == nil)
    }

    /// Neither the PEM armour nor any line of the key's base64 is in `text`.
    static func expectNoKey(in text: String, pem: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.contains("-----BEGIN") && !text.contains("PRIVATE KEY-----"), sourceLocation: sourceLocation)
        for line in pem.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!text.contains(line), sourceLocation: sourceLocation)
        }
    }
}
