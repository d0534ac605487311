import LedgerCLI
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

@Suite("ledger admin credit, hold and price", .bounded)
struct MoneyTests {
    @Test("credit posts a journal entry to the pool's account and moves its source's balance")
    func credit() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let json = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "250000",
                                    "--description", "launch grant"], reason: "ticket 7")
        let position = try #require(json.appended.first?["position"]?.int64Value)
        #expect(json.appended.map { $0["type"] } == ["credit.posted"])
        #expect(json.appended.map { $0["stream"] } == ["payer-acme"])
        #expect(json.appended.first?["data"] == ["pool": "payer:acme", "source": "grant", "amount": "250000",
                                                  "description": "launch grant"])
        #expect(try f.rows("SELECT entry_id, kind, source, amount::text FROM proj_billing.journal WHERE account = 'payer:acme'")
                == [["je_\(position)_0", "credit", "grant", "250000"]])
        #expect(try f.rows("SELECT credit_grant::text FROM proj_billing.balances WHERE account = 'payer:acme'") == [["250000"]])
    }

    @Test("amounts must be canonical (B2) and positive: anything else is a usage error and appends nothing",
          arguments: ["01", "1.5", "+3", "-5", "0", "1e3", " 5", "5 ", "", "9223372036854775808", "-0"])
    func nonCanonicalAmounts(amount: String) throws {
        let outcome = AdminCommand.execute(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", amount,
                                            "--description", "d", "--reason", "r"], environment: AdminFixture.operatorEnvironment) {
            throw UsageError("the database must not be needed")
        }
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("--amount"))
    }

    @Test("credit refuses an unknown pool (status 1) and an unknown source (status 2)")
    func creditRefusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let head = try f.head()
        let ghost = f.admin(["credit", "--pool", "payer:ghost", "--source", "grant", "--amount", "5", "--description", "d"])
        #expect(ghost.status == 1)
        #expect(ghost.errors.contains("payer ghost does not exist"))
        // A funded project has no pool of its own to credit.
        let funded = f.admin(["credit", "--pool", "project:web", "--source", "grant", "--amount", "5", "--description", "d"])
        #expect(funded.status == 1)
        #expect(funded.errors.contains("project:web is not a pool"))
        let source = f.admin(["credit", "--pool", "payer:acme", "--source", "gift", "--amount", "5", "--description", "d"])
        #expect(source.status == 2)
        #expect(source.errors.contains("--source must be one of plan, purchase, grant"))
        #expect(try f.head() == head)
    }

    @Test("hold place reserves on the project's current pool; capture posts part of it and settles it")
    func holdPlaceAndCapture() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let placed = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "web", "--amount", "1000", "--description", "render job"])
        #expect(placed.appended.map { $0["stream"] } == ["hold-h1"])
        #expect(placed.appended.first?["data"] == ["hold_id": "h1", "project_id": "web", "pool": "payer:acme",
                                                    "amount": "1000", "description": "render job"])
        #expect(try f.rows("SELECT account, hold_held::text FROM proj_billing.balances ORDER BY account")
                == [["payer:acme", "1000"], ["project:web", "1000"]])

        let captured = try f.adminJSON(["hold", "capture", "--id", "h1", "--amount", "600"])
        let position = try #require(captured.appended.first?["position"]?.int64Value)
        #expect(captured.appended.map { $0["type"] } == ["hold.captured"])
        #expect(captured.appended.map { $0["stream_version"] } == [2])
        #expect(captured.appended.first?["data"] == ["hold_id": "h1", "amount": "600"])
        #expect(try f.rows("SELECT status, captured::text FROM proj_billing.holds WHERE hold_id = 'h1'") == [["captured", "600"]])
        #expect(try f.rows("SELECT account, entry_id, kind, amount::text FROM proj_billing.journal ORDER BY account")
                == [["payer:acme", "je_\(position)_0", "hold_capture", "-600"], ["project:web", "je_\(position)_0", "hold_capture", "-600"]])
        #expect(try f.rows("SELECT hold_held::text, hold_posted::text FROM proj_billing.balances WHERE account = 'project:web'")
                == [["0", "-600"]])

        let head = try f.head()
        let twice = f.admin(["hold", "capture", "--id", "h1"])
        #expect(twice.status == 1)
        #expect(twice.errors.contains("hold h1 was already captured (position \(position)): a hold is settled once"))
        let release = f.admin(["hold", "release", "--id", "h1"])
        #expect(release.status == 1)
        #expect(release.errors.contains("already_settled"))
        #expect(try f.head() == head)
    }

    @Test("capture defaults to the whole hold and never exceeds it; release settles without posting")
    func holdCaptureLimitsAndRelease() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "solo", "--amount", "1000", "--description", "a"])
        _ = try f.adminJSON(["hold", "place", "--id", "h2", "--project", "solo", "--amount", "300", "--description", "b"])
        let head = try f.head()
        let tooMuch = f.admin(["hold", "capture", "--id", "h1", "--amount", "1001"])
        #expect(tooMuch.status == 1)
        #expect(tooMuch.errors.contains("cannot capture 1001 from hold h1: it holds 1000"))
        #expect(try f.head() == head)

        let whole = try f.adminJSON(["hold", "capture", "--id", "h1"])
        #expect(whole.appended.first?["data"] == ["hold_id": "h1", "amount": "1000"])
        let released = try f.adminJSON(["hold", "release", "--id", "h2"])
        #expect(released.appended.map { $0["type"] } == ["hold.released"])
        #expect(try f.rows("SELECT hold_id, status FROM proj_billing.holds ORDER BY hold_id") == [["h1", "captured"], ["h2", "released"]])
        #expect(try f.rows("SELECT count(*)::text FROM proj_billing.journal WHERE hold_id = 'h2'") == [["0"]])
        let again = f.admin(["hold", "release", "--id", "h2"])
        #expect(again.status == 1)
        #expect(again.errors.contains("hold h2 was already released"))
    }

    @Test("hold refusals: an existing hold id, an unknown project, an unknown hold, a zero capture")
    func holdRefusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "solo", "--amount", "10", "--description", "a"])
        let head = try f.head()
        let duplicate = f.admin(["hold", "place", "--id", "h1", "--project", "solo", "--amount", "10", "--description", "a"])
        #expect(duplicate.status == 1)
        #expect(duplicate.errors.contains("hold h1 already exists"))
        let ghost = f.admin(["hold", "place", "--id", "h2", "--project", "ghost", "--amount", "10", "--description", "a"])
        #expect(ghost.status == 1)
        #expect(ghost.errors.contains("project ghost does not exist"))
        let unknown = f.admin(["hold", "capture", "--id", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("hold nope does not exist"))
        #expect(f.admin(["hold", "capture", "--id", "h1", "--amount", "0"]).status == 2)
        #expect(try f.head() == head)
    }

    @Test("price set records both prices; negative or non-canonical prices are usage errors")
    func priceSet() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let json = try f.adminJSON(["price", "set", "--unit-price", "2", "--storage-price-per-gib-month", "0"])
        #expect(json.appended.map { $0["stream"] } == ["config-pricing"])
        #expect(json.appended.first?["data"] == ["unit_price": "2", "storage_price_per_gib_month": "0"])
        #expect(try f.rows("SELECT unit_price::text, storage_price::text FROM proj_billing.pricing") == [["2", "0"]])
        #expect(f.admin(["price", "set", "--unit-price", "-1", "--storage-price-per-gib-month", "0"]).status == 2)
        #expect(f.admin(["price", "set", "--unit-price", "1.0", "--storage-price-per-gib-month", "0"]).status == 2)
        #expect(f.admin(["price", "set", "--unit-price", "1"]).status == 2)
    }
}
