import Foundation
import StripeAPI
import Testing
import TestSupport

@Suite("LEDGER_STRIPE_API_KEYS: each app's key read from its own file, every mistake named without the key", .bounded)
struct KeysFileTests {
    static let key = "sk_test_51KeysFileSecretABCDEFGH9876"
    static let liveKey = "rk_live_51RestrictedSecretZYXWV1234"

    /// A keys file with `document`, its key files beside it (relative names) by name.
    func keysFile(_ document: String, keyFiles: [String: String] = [:]) throws -> String {
        let directory = ScratchFile.directory + "/stripe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in keyFiles { try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }
        let path = directory + "/keys.json"
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The refusal of the keys file at `path`; every message is checked for the keys' bytes.
    func refusal(_ path: String, allowsBaseURL: Bool = false) throws -> String {
        let error = try #require(throws: StripeAPIError.self) { try StripeAPIKeysFile.configurations(path: path, allowsBaseURL: allowsBaseURL) }
        #expect(error.code == .configurationInvalid)
        for key in [Self.key, Self.liveKey, "pk_test_51Publishable0123456789"] {
            #expect(!error.message.contains(key.dropFirst(8)) && !error.description.contains(key.dropFirst(8)))
        }
        return error.message
    }

    @Test("each entry's key is read from its file, relative to the keys file or absolute, its last newline dropped")
    func reads() throws {
        let absolute = try ScratchFile.write(Self.liveKey + "\n", prefix: "stripe-live", suffix: ".key")
        let path = try keysFile(#"{"apps":[{"app_id":"screenrig","secret_key_file":"screenrig.key"},{"app_id":"other","secret_key_file":"\#(absolute)"}]}"#,
                                keyFiles: ["screenrig.key": Self.key + "\n"])
        let configurations = try StripeAPIKeysFile.configurations(path: path)
        #expect(configurations.map(\.appID) == ["screenrig", "other"])
        #expect(configurations[0].secretKey == (try StripeSecretKey(Self.key)) && !configurations[0].secretKey.livemode)
        #expect(configurations[1].secretKey == (try StripeSecretKey(Self.liveKey)) && configurations[1].secretKey.livemode)
        #expect(configurations.allSatisfy { $0.baseURL == "https://api.stripe.com" && $0.outboundPolicy == .production })
        #expect(try StripeAPIKeysFile.configurations(environment: [StripeAPIKeysFile.environmentVariable: path]).count == 2)
        #expect(try StripeAPIKeysFile.configurations(environment: [:]).isEmpty)
        #expect(try StripeAPIKeysFile.configurations(environment: ["LEDGER_STRIPE_API_KEYS": ""]).isEmpty)
    }

    @Test("a base_url (a stand-in) only where allowed, and only an http(s) URL")
    func baseURL() throws {
        let path = try keysFile(#"{"apps":[{"app_id":"a","secret_key_file":"a.key","base_url":"http://127.0.0.1:4242"}]}"#,
                                keyFiles: ["a.key": Self.key])
        #expect(try refusal(path).contains("apps[0] (a): base_url is refused in production"))
        let configuration = try #require(try StripeAPIKeysFile.configurations(path: path, allowsBaseURL: true).first)
        #expect(configuration.baseURL == "http://127.0.0.1:4242" && configuration.outboundPolicy == .development)
        let bad = try keysFile(#"{"apps":[{"app_id":"a","secret_key_file":"a.key","base_url":"ftp://x"}]}"#, keyFiles: ["a.key": Self.key])
        #expect(try refusal(bad, allowsBaseURL: true).contains("base_url must be an http or https URL"))
    }

    @Test("each mistake is named by its entry and field, and no message holds a key's bytes")
    func mistakes() throws {
        let keys = ["good.key": Self.key, "publishable.key": "pk_test_51Publishable0123456789", "short.key": "sk_test_tooShort",
                    "garbled.key": Self.key.replacingOccurrences(of: "Secret", with: "Sec-ret"), "two-lines.key": Self.key + "\n" + Self.liveKey,
                    "empty.key": ""]
        let cases: [(String, String)] = [
            ("not json", "is not a JSON object"),
            (#"{"keys":[]}"#, "there is no \"apps\" array"),
            (#"{"apps":["screenrig"]}"#, "apps[0] is not an object"),
            (#"{"apps":[{"secret_key_file":"good.key"}]}"#, "apps[0] has no app_id"),
            (#"{"apps":[{"app_id":"a"}]}"#, "apps[0] (a) has no secret_key_file"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"missing.key"}]}"#, "secret_key_file"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"publishable.key"}]}"#, "does not hold a Stripe secret key"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"short.key"}]}"#, "does not hold a Stripe secret key"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"garbled.key"}]}"#, "does not hold a Stripe secret key"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"two-lines.key"}]}"#, "does not hold a Stripe secret key"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"empty.key"}]}"#, "does not hold a Stripe secret key"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"good.key"},{"app_id":"a","secret_key_file":"good.key"}]}"#,
             "apps[1] (a): the app is configured twice"),
            (#"{"apps":[{"app_id":"a","secret_key":"\#(Self.key)"}]}"#, "apps[0] (a): secret_key is refused"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"good.key","api_key":"\#(Self.liveKey)"}]}"#, "apps[0] (a): api_key is refused"),
            (#"{"apps":[{"app_id":"a","secret_key_file":"good.key","mode":"live"}]}"#, "unknown field \"mode\""),
        ]
        for (document, expected) in cases {
            let message = try refusal(try keysFile(document, keyFiles: keys))
            #expect(message.contains(expected), "\(document): \(message)")
            #expect(message.hasPrefix("LEDGER_STRIPE_API_KEYS ("))
        }
        let message = try refusal(ScratchFile.directory + "/no-such-keys.json")
        #expect(message.contains("the file cannot be read"))
    }
}
