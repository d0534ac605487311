import Crypto
import EventStore
import Foundation
@testable import LedgerCLI
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

/// The demo keys `ledger dev` seeds are random per data directory, kept there (0600) and
/// reused by every start, so that only who can read that directory holds them.
@Suite("ledger dev's demo keys", .bounded)
struct DemoKeysTests {
    /// A data directory of its own, removed afterwards.
    static func dataDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-demo-keys-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func seed(_ f: AdminFixture, _ directory: String) throws -> [String: JSONValue] {
        try DemoData.seed(store: f.store, sessionSecret: Array("a session secret of the tests, 32+ bytes".utf8), dataDirectory: directory)
    }

    /// Every demo secret `demo.json` would show, by name (`catalog` for the publishable key).
    static func secrets(_ demo: [String: JSONValue]) throws -> [String: String] {
        var secrets = try #require(demo["keys"]?.objectValue).compactMapValues(\.stringValue)
        secrets["catalog"] = try #require(demo["catalog"]?["publishable_key"]?.stringValue)
        return secrets
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("two data directories get different random keys, each kind with its prefix, kept 0600 and reused by a second seed")
    func randomPerDataDirectory() throws {
        let (one, two) = (try AdminFixture(projector: false), try AdminFixture(projector: false))
        let (first, second) = (try Self.dataDirectory(), try Self.dataDirectory())
        defer {
            one.shutdown()
            two.shutdown()
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let mine = try Self.secrets(try Self.seed(one, first))
        let theirs = try Self.secrets(try Self.seed(two, second))
        #expect(Set(mine.keys) == ["acme", "acme-web", "acme-mobile", "solo", "metering", "auditor", "catalog"])
        #expect(Set(mine.values).isDisjoint(with: theirs.values), "nothing shared between two data directories")
        #expect(Set(mine.values).count == mine.count, "every key its own")

        let prefixes = ["acme": "sk_test_", "acme-web": "sk_test_", "acme-mobile": "sk_test_", "solo": "sk_test_",
                        "metering": "sk_svc_", "auditor": "sk_aud_", "catalog": "zs_pk_test_"]
        for secrets in [mine, theirs] {
            for (name, prefix) in prefixes {
                let secret = try #require(secrets[name])
                #expect(secret.hasPrefix(prefix), "\(name): \(secret.prefix(12))")
                // 256 random bits after the prefix.
                let random = String(secret.dropFirst(prefix.count))
                #expect((name == "catalog" ? Hex.decode(random) : Base64URL.decode(random))?.count == 32, "\(name)")
            }
        }

        // Kept in the data directory, readable by its owner alone, and what the log holds.
        let file = first + "/demo-keys.json"
        #expect(try Self.mode(file) == 0o600)
        let kept = try JSONValue.parse(Array(try #require(FileManager.default.contents(atPath: file))))
        #expect(kept["keys"]?["acme"]?["secret"]?.stringValue == mine["acme"])
        let issued = try one.events().filter { $0.type == "key.issued" }
        #expect(issued.count == 6)
        for event in issued {
            let name = try #require(event.json["key_id"]?.stringValue).replacing("demo-", with: "", maxReplacements: 1)
            #expect(event.json["sha256"]?.stringValue == Hex.encode(SHA256.hash(Array(try #require(mine[name]).utf8))), "\(name)")
        }

        // A restart: the same keys, and nothing appended.
        let head = try one.head()
        #expect(try Self.secrets(try Self.seed(one, first)) == mine)
        #expect(try one.head() == head)
        #expect(try Self.mode(file) == 0o600)
    }

    @Test("a data directory whose keys file is gone gets new keys under new key ids, and its old keys are revoked")
    func lostFileRevokesAndReissues() throws {
        let f = try AdminFixture(projector: false)
        let directory = try Self.dataDirectory()
        defer {
            f.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let before = try Self.secrets(try Self.seed(f, directory))
        try FileManager.default.removeItem(atPath: directory + "/demo-keys.json")

        let start = try f.head()
        let after = try Self.secrets(try Self.seed(f, directory))
        #expect(Set(after.values).isDisjoint(with: before.values))
        #expect(try Self.mode(directory + "/demo-keys.json") == 0o600)
        let events = try f.events(after: start)
        #expect(Set(events.filter { $0.type == "key.revoked" }.map(\.stream))
                == Set(DemoKeys.accounts.map { "key-demo-" + $0.name }))
        #expect(Set(events.filter { $0.type == "key.issued" }.map(\.stream))
                == Set(DemoKeys.accounts.map { "key-demo-\($0.name)-2" }))
        #expect(events.filter { $0.type == "app.key_revoked" }.map { $0.json["key_id"] } == ["screenrig-ios-test-key"])
        #expect(events.filter { $0.type == "app.key_issued" }.map { $0.json["key_id"] } == ["screenrig-ios-test-key-2"])
        #expect(events.allSatisfy { $0.type.hasSuffix("issued") || $0.type.hasSuffix("revoked") }, "\(events.map(\.type))")

        // The new ones are kept from then on.
        let head = try f.head()
        #expect(try Self.secrets(try Self.seed(f, directory)) == after)
        #expect(try f.head() == head)
    }

    @Test("a keys file made for another database is refused, saying so, and nothing is appended")
    func anotherDatabasesFileIsRefused() throws {
        let (one, two) = (try AdminFixture(projector: false), try AdminFixture(projector: false))
        let (first, second) = (try Self.dataDirectory(), try Self.dataDirectory())
        defer {
            one.shutdown()
            two.shutdown()
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        _ = try Self.seed(one, first)
        _ = try Self.seed(two, second)
        let head = try two.head()
        let error = #expect(throws: DemoKeys.Failure.self) { try Self.seed(two, first) }
        #expect(error?.description.contains("does not belong to this database") == true, "\(String(describing: error))")
        #expect(try two.head() == head)
    }
}
