import API
import LedgerDomain
import LedgerJSON
import Projections
import Testing
import TestSupport

@Suite("Usage (U1–U6) and closing a month", .bounded)
struct UsageRuleTests {
    @Test("U1: usage is per UTC calendar month of occurred_at, to the microsecond")
    func u1UTCMonths() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        try f.usage("solo", .apiRequests, 5, at: "2026-10-31T23:59:59.999999Z")
        try f.usage("solo", .apiRequests, 7, at: "2026-11-01T00:00:00Z")
        try f.usage("solo", .apiRequests, 11, at: "2026-11-01T00:30:00+01:00")   // 2026-10-31T23:30Z
        #expect(try f.get("/v1/projects/solo/usage?month=2026-10", key: key).body["units"]?["counted"] == 16)
        #expect(try f.get("/v1/projects/solo/usage?month=2026-11", key: key).body["units"]?["counted"] == 7)
        #expect(try f.get("/v1/projects/solo/usage?month=2026-12", key: key).body["units"]?["counted"] == 0)
        // Without `month`, the service's current month (the test clock says 2026-11).
        #expect(try f.get("/v1/projects/solo/usage", key: key).body["month"] == "2026-11")
        for bad in ["2026-13", "2026-1", "26-11", "2026-11-01", "x"] {
            let r = try f.get("/v1/projects/solo/usage?month=\(bad)", key: key)
            #expect(r.status == 400 && r.body["code"] == "invalid_parameter", "\(bad)")
        }
    }

    @Test("U2: bytes served and received are reported and never billed")
    func u2BytesNeverBilled() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        try f.prices(unit: 1_000, storagePerGiB: 1_000_000)
        try f.usage("solo", .bytesServed, 5_000_000_000_000, at: "2026-11-02T00:00:00Z")
        try f.usage("solo", .bytesReceived, 7_000_000_000_000, at: "2026-11-02T00:00:00Z")
        let u = try f.get("/v1/projects/solo/usage?month=2026-11", key: key).body
        #expect(u["bytes_served"] == 5_000_000_000_000)
        #expect(u["bytes_received"] == 7_000_000_000_000)
        #expect(u["amount"] == "0")
        #expect(u["units"]?["counted"] == 0)
        #expect(try f.get("/v1/projects/solo/balance", key: key).body["held"] == "0")
    }

    @Test("U3: storage is billed only above the payer's plan allowance")
    func u3StorageAboveAllowance() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let gib: Int64 = 1 << 30
        try f.payer("acme", allowance: 2 * gib)
        try f.project("web", payer: "acme")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        try f.prices(unit: 0, storagePerGiB: 1_000)
        try f.usage("web", .storageBytes, gib, at: "2026-11-02T00:00:00Z")
        var u = try f.get("/v1/projects/web/usage?month=2026-11", key: key).body
        #expect(u["storage"]?["billed_bytes"] == 0 && u["storage"]?["amount"] == "0")
        #expect(u["storage"]?["allowance_bytes"] == .integer(2 * gib))
        try f.usage("web", .storageBytes, 3 * gib + gib / 2, at: "2026-11-03T00:00:00Z")   // peak 3.5 GiB
        try f.usage("web", .storageBytes, gib, at: "2026-11-04T00:00:00Z")                // peak stays
        u = try f.get("/v1/projects/web/usage?month=2026-11", key: key).body
        #expect(u["storage"]?["peak_bytes"] == .integer(3 * gib + gib / 2))
        #expect(u["storage"]?["billed_bytes"] == .integer(gib + gib / 2))
        #expect(u["storage"]?["amount"] == "1500")
    }

    @Test("U4: API requests, stream events and webhook deliveries share one free limit of 10,000 a month")
    func u4FreeLimit() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        try f.prices(unit: 2, storagePerGiB: 0)
        try f.usage("solo", .apiRequests, 6_000, at: "2026-11-02T00:00:00Z")
        try f.usage("solo", .streamEvents, 3_000, at: "2026-11-02T00:00:00Z")
        try f.usage("solo", .webhookDeliveries, 1_500, at: "2026-11-02T00:00:00Z")
        try f.usage("solo", .apiRequests, 250, at: "2026-12-01T00:00:00Z")           // a new month starts afresh
        let u = try f.get("/v1/projects/solo/usage?month=2026-11", key: key).body
        #expect(u["units"]?["counted"] == 10_500)
        #expect(u["units"]?["free_limit"] == 10_000)
        #expect(u["units"]?["free_used"] == 10_000)
        #expect(u["units"]?["billed"] == 500)
        #expect(u["units"]?["amount"] == "1000")
        let december = try f.get("/v1/projects/solo/usage?month=2026-12", key: key).body
        #expect(december["units"]?["free_used"] == 250 && december["units"]?["billed"] == 0)
    }

    @Test("U6: projects of a pool share the free units in log order, and the storage above the allowance in proportion to their storage")
    func u6SharedPool() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme", allowance: 1_000)
        for p in ["a", "b", "c"] { try f.project(p, payer: "acme") }
        let keys = try ["a", "b", "c"].map { try f.key(for: KeyPrincipal(kind: .project, id: $0)) }
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        try f.prices(unit: 1, storagePerGiB: 1 << 30)   // one millicredit per byte, to check the split exactly
        try f.usage("b", .apiRequests, 9_000, at: "2026-11-20T00:00:00Z")   // first in the log, though later in time
        try f.usage("a", .apiRequests, 4_000, at: "2026-11-05T00:00:00Z")
        try f.usage("c", .apiRequests, 10, at: "2026-11-06T00:00:00Z")
        for (p, bytes) in [("a", Int64(1)), ("b", 1), ("c", 1_001)] { try f.usage(p, .storageBytes, bytes, at: "2026-11-07T00:00:00Z") }
        let a = try f.get("/v1/projects/a/usage?month=2026-11", key: keys[0]).body
        let b = try f.get("/v1/projects/b/usage?month=2026-11", key: keys[1]).body
        let c = try f.get("/v1/projects/c/usage?month=2026-11", key: keys[2]).body
        #expect(b["units"]?["free_used"] == 9_000 && b["units"]?["billed"] == 0)
        #expect(a["units"]?["free_used"] == 1_000 && a["units"]?["billed"] == 3_000)
        #expect(c["units"]?["free_used"] == 0 && c["units"]?["billed"] == 10)
        #expect(a["payer"] == ["kind": "payer", "id": "acme"])
        // Pool storage 1003, allowance 1000: 3 bytes billed, split 1:1:1001 → 0, 0, 3 by
        // exact shares with the remainders to the largest.
        let shares = [a, b, c].map { $0["storage"]?["billed_bytes"]?.int64Value ?? -1 }
        #expect(shares.reduce(0, +) == 3)
        #expect(shares == [0, 0, 3])
        let pool = try f.get("/v1/payers/acme/usage?month=2026-11", key: payerKey).body
        #expect(pool["units"]?["free_used"] == 10_000)
        #expect(pool["storage"]?["billed_bytes"] == 3)
        #expect(pool["projects"]?.arrayValue?.count == 3)
        #expect(pool["amount"] == .string(String(3_000 + 10 + 3)))
    }

    @Test("closing a month posts each project's charge to the journal; later usage of that month is never billed")
    func closeMonth() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        _ = try f.credit(.payer("acme"), .grant, 100_000)
        try f.prices(unit: 5, storagePerGiB: 0)
        try f.usage("web", .apiRequests, 10_200, at: "2026-10-10T00:00:00Z")
        #expect(try f.get("/v1/projects/web/balance", key: key).body["held"] == "1000")
        let closed = try f.closeMonth(.payer("acme"), "2026-10")
        #expect(closed.charges.map(\.amount) == [Millicredits(1_000)])
        try f.usage("web", .apiRequests, 999, at: "2026-10-30T00:00:00Z")   // slipped in after the close
        let u = try f.get("/v1/projects/web/usage?month=2026-10", key: key).body
        #expect(u["status"] == "closed" && u["final"] == true)
        #expect(u["units"]?["counted"] == 10_200)
        let entries = try #require(try f.get("/v1/projects/web/journal", key: key).body["entries"]?.arrayValue)
        #expect(entries.map { $0["kind"] } == ["usage_charge"])
        #expect(entries[0]["amount"] == "-1000" && entries[0]["month"] == "2026-10")
        let share = try f.get("/v1/projects/web/balance", key: key).body
        #expect(share["held"] == "0" && share["consumption"]?["usage"]?["posted"] == "1000")
        let pool = try f.get("/v1/payers/acme/balance", key: payerKey).body
        #expect(pool["available"] == "99000")
        #expect(try f.service.db.connect().query("SELECT count(*) FROM proj_billing.late_usage")[0].int64(0) == 1)
    }
}

@Suite("Closing a month is priced as it stood when it started closing", .bounded)
struct ClosingPriceTests {
    @Test("a price or allowance change between the two close events does not change the recorded charges")
    func frozenAtClosing() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        try f.prices(unit: 0, storagePerGiB: 1 << 30)
        try f.usage("solo", .storageBytes, 100, at: "2026-10-10T00:00:00Z")
        let month = UTCMonth("2026-10")!
        try f.append(MonthClosing(pool: .project("solo"), month: month), stream: "project-solo")
        try f.prices(unit: 0, storagePerGiB: 10 << 30)
        try f.append(PlanSet(pool: .project("solo"), plan: "bigger", allowanceStorageBytes: 50), stream: "project-solo")
        try f.settle()
        let closing = try #require(try BillingReadModel(connections: f.service.context.connections).closingMonth(PoolMonth(.project("solo"), month)))
        let closed = try MonthCloseDecider.closed(PoolMonth(.project("solo"), month), closing: closing).events[0].decode(MonthClosed.self)
        #expect(closed.charges.map(\.storageAmount) == [Millicredits(100)])
        #expect(closed.allowanceStorageBytes == 0)
    }
}
