import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport
import WebhookSigning

@Suite("ledger admin webhook", .bounded)
struct WebhookAdminTests {
    @Test("add prints the secret once; list and show read the subscription; rotate signs with both secrets for the overlap")
    func lifecycle() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let added = try f.adminJSON(["webhook", "add", "--id", "hook", "--project", "web", "--url", "https://example.com/hooks",
                                     "--subject", "project:web", "--subject", "payer:acme", "--type", "subscription.*",
                                     "--balance-low-threshold", "500"])
        let secret = AdminFixture.webhookSecrets.secret(webhook: "hook", generation: 1)
        #expect(added["secret"]?.stringValue == secret)
        #expect(secret.hasPrefix("whsec_") && secret.count == 49)
        #expect(added.appended.first?["type"] == "webhook.subscription_added")

        let list = try f.read(["webhook", "list"])["webhooks"]?.arrayValue ?? []
        #expect(list.map { $0["webhook_id"] } == ["hook"])
        #expect(list.first?["subjects"] == ["payer:acme", "project:web"])
        #expect(list.first?["balance_low_threshold"] == "500")
        #expect(try f.read(["webhook", "list", "--project", "acme-nothing"])["webhooks"] == [])
        let text = f.admin(["webhook", "show", "--id", "hook"], reason: nil)
        #expect(text.output.contains("signed with secret generation 1"))
        #expect(!text.output.contains(secret), "show never prints a secret")

        f.clock.set("2026-11-15T12:00:00Z")
        let rotated = try f.adminJSON(["webhook", "rotate-secret", "--id", "hook", "--overlap-hours", "2"])
        #expect(rotated["secret"]?.stringValue == AdminFixture.webhookSecrets.secret(webhook: "hook", generation: 2))
        #expect(rotated["previous_valid_until"] == "2026-11-15T14:00:00.000000Z")
        let show = try f.read(["webhook", "show", "--id", "hook"])
        #expect(show["webhook"]?["generation"] == .integer(2))
        let until = try #require(show["webhook"]?["previous_valid_until_us"]?.int64Value)
        let during = AdminFixture.webhookSecrets.signing(webhook: "hook", generation: 2, previousValidUntil: until, now: until - 1)
        #expect(during == [rotated["secret"]?.stringValue, secret].compactMap { $0 })
        #expect(AdminFixture.webhookSecrets.signing(webhook: "hook", generation: 2, previousValidUntil: until, now: until).count == 1)

        _ = try f.adminJSON(["webhook", "disable", "--id", "hook"])
        #expect(try f.read(["webhook", "show", "--id", "hook"])["webhook"]?["active"] == false)
        let again = f.admin(["webhook", "disable", "--id", "hook"])
        #expect(again.status == 1)
        #expect(again.errors.contains("webhook hook is disabled"))
    }

    @Test("add refuses a URL the policy refuses, subjects that do not exist, an existing id, and a missing key")
    func refusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("web")
        let head = try f.head()
        func add(_ extra: [String], url: String = "https://example.com/") -> AdminOutcome {
            f.admin(["webhook", "add", "--id", "hook", "--project", "web", "--url", url] + extra)
        }
        #expect(add(["--subject", "project:web"], url: "ftp://example.com/").errors.contains("refused (refused_url)"))
        #expect(add(["--subject", "org:nowhere"]).errors.contains("no such subject: org:nowhere"))
        #expect(add(["--subject", "app:none", "--subject", "payer:none"]).status == 1)
        #expect(add(["--subject", "project:web", "--type", "refund.*"]).errors.contains("no message type matches refund.*"))
        #expect(add([]).status == 2)
        #expect(add(["--subject", "team:web"]).status == 2)
        #expect(try f.head() == head)
        #expect(add(["--subject", "project:web"]).status == 0)
        #expect(add(["--subject", "project:web"]).errors.contains("webhook hook already exists"))

        let keyless = AdminServices(store: f.store, connections: f.pool, now: f.clock.read, projectionTimeout: 5)
        let outcome = AdminCommand.execute(["webhook", "add", "--id", "other", "--project", "web", "--url", "https://example.com/",
                                            "--subject", "project:web", "--reason", "r"],
                                           environment: AdminFixture.operatorEnvironment, services: { keyless })
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("LEDGER_WEBHOOK_KEY"))
    }

    @Test("add and rotate-secret re-run with the same idempotency key append nothing more")
    func idempotent() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("web")
        let add = ["webhook", "add", "--id", "hook", "--project", "web", "--url", "https://example.com/", "--subject", "project:web",
                   "--idempotency-key", "ticket-1"]
        #expect(f.admin(add).status == 0)
        let head = try f.head()
        #expect(f.admin(add).status == 0)
        #expect(try f.head() == head)
        let rotate = ["webhook", "rotate-secret", "--id", "hook", "--idempotency-key", "ticket-2"]
        #expect(f.admin(rotate).status == 0)
        #expect(f.admin(rotate).status == 0)
        #expect(try f.head() == head + 1, "one rotation")
        #expect(try f.read(["webhook", "show", "--id", "hook"])["webhook"]?["generation"] == .integer(2))
    }
}
