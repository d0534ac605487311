import LedgerCLI
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

/// Every write path carries an idempotency key, operator commands included, so
/// that re-running a command after any failure never posts twice.
@Suite("ledger admin: idempotency keys", .bounded)
struct IdempotentCommandTests {
    @Test("a command prints the key it appended under; re-run with it, it appends nothing and says so")
    func rerunWithTheKeyAppendsNothing() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let credit = ["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "500", "--description", "launch"]
        let first = try f.adminJSON(credit)
        let key = try #require(first["idempotency_key"]?.stringValue)
        #expect(key.hasPrefix("adm-"))
        let head = try f.head()
        let again = try f.adminJSON(credit + ["--idempotency-key", key])
        #expect(try f.head() == head)
        #expect(again.appended.first?["already_recorded"] == true)
        #expect(again.appended.first?["position"] == first.appended.first?["position"])
        // Without the key the same command is a new credit, as an operator would expect.
        _ = try f.adminJSON(credit)
        #expect(try f.head() == head + 1)
        #expect(try f.rows("SELECT credit_grant::text FROM proj_billing.balances WHERE account = 'payer:acme'") == [["1000"]])
    }

    @Test("a key chosen up front makes the first run and every retry one append, even where the state changed")
    func chosenKeyAcrossAStateChange() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "500", "--description", "d"])
        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "web", "--amount", "100", "--description", "d"])
        let capture = ["hold", "capture", "--id", "h1", "--idempotency-key", "ticket-42-capture"]
        let first = try f.adminJSON(capture)
        let head = try f.head()
        // The hold is settled now; the retry is answered from the log, not refused.
        let retry = f.admin(capture + ["--json"])
        #expect(retry.status == 0, "\(retry.errors)")
        #expect(try f.head() == head)
        let json = try JSONValue.parse(retry.output)
        #expect(json.appended.first?["position"] == first.appended.first?["position"])
        #expect(json.appended.first?["already_recorded"] == true)
    }

    @Test("a malformed key is a usage error", arguments: ["", "has space", String(repeating: "k", count: 151), "é"])
    func malformedKey(key: String) {
        let outcome = AdminCommand.execute(["price", "set", "--unit-price", "1", "--storage-price-per-gib-month", "1", "--reason", "r",
                                            "--idempotency-key", key], environment: AdminFixture.operatorEnvironment) {
            throw UsageError("the database must not be needed")
        }
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("--idempotency-key"))
    }
}
