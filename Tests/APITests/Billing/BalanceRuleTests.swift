import API
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("Balance snapshot (B1–B4, U5–U7) and authentication", .bounded)
struct BalanceRuleTests {
    @Test("B1: the balance is broken down by credit source and by consumption")
    func b1SourceAware() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        _ = try f.credit(.project("solo"), .plan, 5_000)
        _ = try f.credit(.project("solo"), .purchase, 20_000)
        _ = try f.credit(.project("solo"), .grant, 1_500)
        try f.prices(unit: 3, storagePerGiB: 0)
        try f.usage("solo", .apiRequests, 10_100, at: "2026-11-02T10:00:00Z")
        try f.append(HoldPlaced(holdID: "h1", projectID: "solo", pool: .project("solo"), amount: Millicredits(700), description: "job"),
                     stream: "hold-h1")
        let (status, b, _) = try f.get("/v1/projects/solo/balance", key: key)
        #expect(status == 200)
        #expect(b["sources"]?["plan"]?["posted"] == "5000")
        #expect(b["sources"]?["purchase"]?["posted"] == "20000")
        #expect(b["sources"]?["grant"]?["posted"] == "1500")
        #expect(b["sources"]?["correction"]?["posted"] == "0")
        #expect(b["consumption"]?["usage"]?["held"] == "300")   // 100 billed units × 3, accrued
        #expect(b["consumption"]?["usage"]?["posted"] == "0")
        #expect(b["consumption"]?["hold"]?["held"] == "700")
        #expect(b["posted"] == "26500")
        #expect(b["held"] == "1000")
        #expect(b["available"] == "25500")
        #expect(b["payer"] == ["kind": "self", "id": "solo"])
    }

    @Test("B2: every amount is a canonical decimal string, over generated credits, holds and corrections")
    func b2CanonicalAmounts() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        let projectKey = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        var random = SeededRandom(seed: 2)
        var entries: [String] = []
        for i in 0..<25 {
            switch random.int(0...3) {
            case 0: entries.append(JournalEntryID(position: try f.credit(.payer("acme"), .grant, Int64(random.int(0...1_000_000))).position, index: 0).description)
            case 1:
                try f.append(HoldPlaced(holdID: "h\(i)", projectID: "web", pool: .payer("acme"), amount: Millicredits(Int64(random.int(1...999))), description: "x"), stream: "hold-h\(i)")
                try f.append(HoldCaptured(holdID: "h\(i)", amount: Millicredits(Int64(random.int(0...1)))), stream: "hold-h\(i)")
            case 2 where !entries.isEmpty:
                let target = random.pick(entries)
                let original = try #require(JournalEntryID(target))
                try f.append(EntryCorrected(entryID: target, amount: Millicredits(Int64(random.int(-5_000...5_000))), reason: "fix"),
                             stream: "payer-acme", corrects: original.position)
            default: try f.usage("web", .apiRequests, Int64(random.int(0...20_000)), at: "2026-11-0\(random.int(1...9))T00:00:00Z")
            }
        }
        for (path, key) in [("/v1/payers/acme/balance", payerKey), ("/v1/projects/web/balance", projectKey),
                            ("/v1/payers/acme/journal?limit=200", payerKey), ("/v1/projects/web/journal?limit=200", projectKey),
                            ("/v1/payers/acme/usage?month=2026-11", payerKey), ("/v1/projects/web/usage?month=2026-11", projectKey)] {
            let (status, body, _) = try f.get(path, key: key)
            #expect(status == 200, "\(path)")
            let amounts = amountFields(body)
            #expect(!amounts.isEmpty, "\(path) shows amounts")
            for (field, value) in amounts { #expect(isCanonicalAmount(value), "\(path) \(field) = \(value)") }
        }
        // And the canonical form is what the domain accepts: nothing else parses.
        for bad in ["00", "+1", "-0", "1e3", "1.0", " 1", "", "-", "01", "170141183460469231731687303715884105728"] {
            #expect(Millicredits(canonical: bad) == nil, "\(bad)")
        }
    }

    @Test("B3: a snapshot, not a payment authority: it goes negative rather than refusing anything")
    func b3NotAnAuthority() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        _ = try f.credit(.project("solo"), .grant, 100)
        try f.append(HoldPlaced(holdID: "big", projectID: "solo", pool: .project("solo"), amount: Millicredits(5_000), description: "x"),
                     stream: "hold-big")
        let (_, b, headers) = try f.get("/v1/projects/solo/balance", key: key)
        #expect(b["payment_authority"] == false)
        #expect(b["available"] == "-4900")
        #expect(headers["cache-control"] == "no-store")
    }

    @Test("B4: rails_available is false and the missing rails are listed")
    func b4Rails() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let (_, b, _) = try f.get("/v1/projects/solo/balance", key: key)
        #expect(b["rails_available"] == false)
        #expect(b["missing_rails"] == ["card", "tax", "withdrawal"])
    }

    @Test("U5: a self-paying project reads its own pool")
    func u5SelfPaying() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        _ = try f.credit(.project("solo"), .purchase, 900)
        let (_, b, _) = try f.get("/v1/projects/solo/balance", key: key)
        #expect(b["scope"] == "pool")
        #expect(b["reserve_visible"] == true)
        #expect(b["available"] == "900")
    }

    @Test("U6, U7: a funded project sees its own share and names its payer; only the payer's read shows the reserve")
    func u7ReserveOnlyOnPayerRead() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("app", payer: "acme")
        let webKey = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        _ = try f.credit(.payer("acme"), .grant, 1_000_000)
        try f.append(HoldPlaced(holdID: "w", projectID: "web", pool: .payer("acme"), amount: Millicredits(300), description: "x"), stream: "hold-w")
        try f.append(HoldPlaced(holdID: "a", projectID: "app", pool: .payer("acme"), amount: Millicredits(50), description: "x"), stream: "hold-a")
        let (_, share, _) = try f.get("/v1/projects/web/balance", key: webKey)
        #expect(share["scope"] == "share")
        #expect(share["payer"] == ["kind": "payer", "id": "acme"])
        #expect(share["sources"] == nil)
        #expect(share["available"] == nil)
        #expect(share["reserve_visible"] == false)
        #expect(share["held"] == "300", "its own hold only, not the other project's")
        #expect(!share.compactText().contains("1000000"), "the reserve total appears nowhere in a funded project's read")
        let (_, whole, _) = try f.get("/v1/payers/acme/balance", key: payerKey)
        #expect(whole["scope"] == "pool")
        #expect(whole["available"] == "999650")
        #expect(whole["held"] == "350")
    }

    @Test("keys: missing or wrong is 401; another account's data is 404, as for one that does not exist; revoked is 401")
    func authentication() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("mine")
        try f.project("theirs")
        try f.payer("acme")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "mine"))
        #expect(try f.get("/v1/projects/mine/balance", key: nil).status == 401)
        #expect(try f.get("/v1/projects/mine/balance", key: "sk_not_a_key").status == 401)
        let (status, body, headers) = try f.get("/v1/projects/mine/balance", key: "sk_not_a_key")
        #expect(status == 401 && body["code"] == "unauthenticated")
        #expect(headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        for path in ["/v1/projects/theirs/balance", "/v1/projects/theirs/journal", "/v1/projects/theirs/usage",
                     "/v1/projects/nobody/balance", "/v1/payers/acme/balance"] {
            let r = try f.get(path, key: key)
            #expect(r.status == 404 && r.body["code"] == "not_found", "\(path)")
        }
        let keyID = try f.service.db.connect().query("SELECT key_id FROM proj_billing.keys WHERE principal_id = 'mine'")[0].requireString(0)
        try f.append(KeyRevoked(keyID: keyID), stream: "key-" + keyID)
        #expect(try f.get("/v1/projects/mine/balance", key: key).status == 401)
    }
}
