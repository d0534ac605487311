import API
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("Funding changes", .bounded)
struct FundingTests {
    @Test("a funding change takes effect at its instant: usage is billed to the pool in force at occurred_at, and reads follow the request's time")
    func fundingChange() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        try f.prices(unit: 1, storagePerGiB: 0)
        try f.append(ProjectFundingChanged(projectID: "web", funding: .selfPaying, effectiveAt: t("2026-12-01T00:00:00Z")),
                     stream: "project-web")
        try f.usage("web", .apiRequests, 10_005, at: "2026-11-30T23:59:59Z")   // acme's pool
        try f.usage("web", .apiRequests, 10_007, at: "2026-12-01T00:00:00Z")   // its own pool from now on
        // Before the change takes effect, the project reads its share of acme's pool.
        var b = try f.get("/v1/projects/web/balance", key: key).body
        #expect(b["payer"] == ["kind": "payer", "id": "acme"] && b["scope"] == "share")
        #expect(b["held"] == "5")
        #expect(try f.get("/v1/payers/acme/usage?month=2026-11", key: payerKey).body["units"]?["billed"] == 5)
        #expect(try f.get("/v1/payers/acme/usage?month=2026-12", key: payerKey).body["units"]?["counted"] == 0)
        // Once the request's time passes the change, it reads its own pool.
        f.service.clock.set("2026-12-02T00:00:00Z")
        b = try f.get("/v1/projects/web/balance", key: key).body
        #expect(b["payer"] == ["kind": "self", "id": "web"] && b["scope"] == "pool")
        #expect(b["held"] == "7")
        let december = try f.get("/v1/projects/web/usage?month=2026-12", key: key).body
        #expect(december["units"]?["billed"] == 7 && december["payer"] == ["kind": "self", "id": "web"])
        let november = try f.get("/v1/projects/web/usage?month=2026-11", key: key).body
        #expect(november["units"]?["billed"] == 5, "November stays on acme's pool")
    }
}
