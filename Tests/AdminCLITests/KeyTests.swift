import Crypto
import LedgerCLI
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

@Suite("ledger admin key", .bounded)
struct KeyTests {
    @Test("key issue prints the secret once; the log and the projection keep only its SHA-256 and prefix; revoke marks it revoked")
    func issueAndRevoke() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("web")
        let start = try f.head()
        let json = try f.adminJSON(["key", "issue", "--project", "web", "--key-id", "key_web1"])
        let secret = try #require(json["secret"]?.stringValue)
        #expect(secret.hasPrefix("sk_live_"))
        #expect(Base64URL.decode(String(secret.dropFirst("sk_live_".count)))?.count == 32)
        #expect(json["warning"]?.stringValue?.contains("cannot be shown again") == true)
        let digest = Hex.encode(SHA256.hash(Array(secret.utf8)))

        let events = try f.events(after: start)
        #expect(events.map(\.type) == ["key.issued"])
        #expect(events.map(\.stream) == ["key-key_web1"])
        #expect(events[0].json == ["key_id": "key_web1", "principal": ["kind": "project", "id": "web"],
                                   "sha256": .string(digest), "prefix": .string(String(secret.prefix(12)))])
        #expect(!events[0].dataText.contains(secret) && !events[0].metadataText.contains(secret))

        // What the API authenticates with: the row found by the SHA-256 of the bearer token.
        #expect(try f.rows("SELECT principal_kind, principal_id, revoked::text FROM proj_billing.keys WHERE sha256 = $1", [digest])
                == [["project", "web", "false"]])

        let revoked = try f.adminJSON(["key", "revoke", "--key-id", "key_web1"], reason: "leaked in a CI log")
        #expect(revoked.appended.map { $0["type"] } == ["key.revoked"])
        #expect(revoked.appended.map { $0["stream_version"] } == [2])
        #expect(try f.rows("SELECT revoked::text FROM proj_billing.keys WHERE sha256 = $1", [digest]) == [["true"]])

        let again = f.admin(["key", "revoke", "--key-id", "key_web1"])
        #expect(again.status == 1)
        #expect(again.errors.contains("key key_web1 is already revoked"))
        let unknown = f.admin(["key", "revoke", "--key-id", "key_ghost"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("key key_ghost does not exist"))
    }

    @Test("the text report shows the secret with its warning; a generated key id is key_ and 8 hex digits")
    func issueText() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let outcome = f.admin(["key", "issue", "--payer", "acme"])
        #expect(outcome.status == 0)
        let issued = try #require(try f.events().last)
        let keyID = try #require(issued.json["key_id"]?.stringValue)
        #expect(keyID.wholeMatch(of: /key_[0-9a-f]{8}/) != nil)
        #expect(issued.stream == "key-" + keyID)
        let secretLine = try #require(outcome.output.split(separator: "\n").first { $0.hasPrefix("  sk_live_") })
        let secret = secretLine.trimmingPrefix("  ")
        #expect(issued.json["sha256"]?.stringValue == Hex.encode(SHA256.hash(Array(secret.utf8))))
        #expect(outcome.output.contains("warning: this is the only time the secret is shown"))
        #expect(try f.rows("SELECT principal_kind, principal_id FROM proj_billing.keys") == [["payer", "acme"]])
    }

    @Test("service keys are sk_svc_ and need no account; a project key needs the project; a key id is used once")
    func serviceKeysAndRefusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let json = try f.adminJSON(["key", "issue", "--service", "metering", "--key-id", "svc1"])
        #expect(json["secret"]?.stringValue?.hasPrefix("sk_svc_") == true)
        #expect(json.appended.first?["data"]?["principal"] == ["kind": "service", "id": "metering"])
        #expect(try f.rows("SELECT principal_kind FROM proj_billing.keys") == [["service"]])

        let head = try f.head()
        let unknown = f.admin(["key", "issue", "--project", "ghost"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("project ghost does not exist"))
        let reused = f.admin(["key", "issue", "--service", "metering", "--key-id", "svc1"])
        #expect(reused.status == 1)
        #expect(reused.errors.contains("key svc1 already exists"))
        #expect(!reused.output.contains("sk_") && !reused.errors.contains("sk_svc_"))
        #expect(try f.head() == head)
        #expect(f.admin(["key", "issue", "--project", "web", "--payer", "acme"]).status == 2)
        #expect(f.admin(["key", "issue"]).status == 2)
    }
}
