import API
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// App Store (docs/appstore.md): the plan, the status and the offer follow one ordering of Apple's
/// facts when something changes between two of them (a staff grant, a refund and its
/// reversal, a revocation, a re-signed transaction, an expiry).
@Suite("App Store rules across a change between two facts", .bounded)
struct ChangeBetweenFactsTests {
    func tx(_ token: UUID, _ plan: Plan, id: String, original: String = "o1", signed: String, purchased: String? = nil,
            expires: String? = nil, revoked: String? = nil) -> String {
        signer.transaction(productID: products[plan]!, appAccountToken: token, environment: "Sandbox", signedDate: t(signed),
                           transactionID: id, originalTransactionID: original, purchaseDate: purchased.map(t) ?? t(signed),
                           expiresDate: expires.map(t), revocationDate: revoked.map(t))
    }

    func note(_ type: String, _ transaction: String, signed: String) -> String {
        signer.notification(type: type, subtype: nil, transaction: transaction,
                            renewal: signer.renewalInfo(originalTransactionID: "o1", environment: "Sandbox", signedDate: t(signed)),
                            environment: "Sandbox", signedDate: t(signed), notificationUUID: UUID())
    }

    func offer(_ f: BillingFixture, as person: String = "alice") throws -> JSONValue {
        try f.offer("acme", as: f.session(person, org: "acme")).body
    }

    @Test("O10, T7: staff's Premium blocks the holder of a Plus subscription too: Premium is not offered and its transaction is a 409")
    func o10StaffBlocksTheHolder() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        #expect(try f.record(tx(token, .plus, id: "p1", signed: "2026-11-14T00:00:00Z"), org: "acme").status == 200)
        #expect(plans(try offer(f)) == ["plus", "premium"], "the holder may change plan within the subscription")
        try f.orgEvent(StaffPlanDecided(orgID: "acme", plan: .premium), "acme")
        #expect(plans(try offer(f)).isEmpty, "staff gives Premium: nothing at that level or below is sold")
        let head = try f.service.store.log.headPosition()
        let upgrade = try f.record(tx(token, .premium, id: "p2", signed: "2026-11-15T00:00:00Z"), org: "acme")
        #expect(upgrade.status == 409 && upgrade.body["code"] == "app_store_plan_conflict", "\(upgrade.body)")
        #expect(try f.service.store.log.headPosition() == head)
    }

    @Test("O10: the holder of a lapsed subscription, whose plan runs to the month's end, may buy in its group again; others may not buy that level")
    func o10LapsedHolderMayResubscribe() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme", admins: ["alice", "bob"])
        try f.subscription(org: "acme", original: "3000", transaction: "3000", plan: .plus, holder: "alice",
                           purchased: "2026-10-20T00:00:00Z", expires: "2026-11-05T00:00:00Z")
        let own = try offer(f)
        #expect(own["subscription"]?["status"] == "expired" && own["plan"]?["current"] == "plus")
        #expect(plans(own) == ["plus", "premium"], "alice resubscribes before her plan goes on Dec 1")
        #expect(plans(try offer(f, as: "bob")) == ["premium"])
    }

    @Test("N3: a refund reversed in a later month restores the plan, and status and plan agree")
    func n3RefundReversedNextMonth() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let t1 = tx(token, .plus, id: "t1", signed: "2026-11-03T00:00:00Z", expires: "2027-11-03T00:00:00Z")
        f.service.clock.set("2026-11-03T01:00:00Z")
        #expect(try f.notify(note("SUBSCRIBED", t1, signed: "2026-11-03T00:00:00Z")).status == 200)
        f.service.clock.set("2026-11-21T01:00:00Z")
        #expect(try f.notify(note("REFUND", t1, signed: "2026-11-21T00:00:00Z")).status == 200)
        var o = try offer(f)
        #expect(o["subscription"]?["status"] == "refunded" && o["plan"]?["current"] == "plus")
        #expect(o["plan"]?["pending"] == ["plan": "free", "from": "2026-12-01T00:00:00.000000Z"])
        f.service.clock.set("2026-12-10T01:00:00Z")
        #expect(try offer(f)["plan"]?["current"] == "free")
        let reversed = tx(token, .plus, id: "t1", signed: "2026-12-10T00:00:00Z", purchased: "2026-11-03T00:00:00Z",
                          expires: "2027-11-03T00:00:00Z")
        #expect(try f.notify(note("REFUND_REVERSED", reversed, signed: "2026-12-10T00:00:00Z")).status == 200)
        o = try offer(f)
        #expect(o["subscription"]?["status"] == "active" && o["plan"]?["current"] == "plus" && o["plan"]?["source"] == "app_store", "\(o)")
        #expect((o["plan"]?["pending"] ?? .null) == .null, "an active subscription within its period is expected to renew")
    }

    @Test("T5, O12: a revoked transaction never makes a subscription active, whether the log knew it or not")
    func t5RevokedNeverActivates() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let t1 = tx(token, .plus, id: "t1", signed: "2026-11-03T00:00:00Z")
        #expect(try f.notify(note("SUBSCRIBED", t1, signed: "2026-11-03T00:00:00Z")).status == 200)
        #expect(try f.notify(note("REFUND", t1, signed: "2026-11-10T00:00:00Z")).status == 200)
        let refunded = tx(token, .plus, id: "t1", signed: "2026-11-12T00:00:00Z", purchased: "2026-11-03T00:00:00Z", revoked: "2026-11-10T00:00:00Z")
        let r = try f.record(refunded, org: "acme")
        #expect(r.status == 200 && r.body["recorded"] == false && r.body["subscription"]?["status"] == "refunded", "\(r.body)")
        // A revoked transaction the log never saw is recorded as the fact it is, and ends nothing into active.
        let other = tx(token, .plus, id: "t9", original: "o9", signed: "2026-11-12T00:00:00Z", purchased: "2026-11-04T00:00:00Z",
                       revoked: "2026-11-11T00:00:00Z")
        let fresh = try f.record(other, org: "acme")
        #expect(fresh.status == 200 && fresh.body["recorded"] == true, "\(fresh.body)")
        let o = try offer(f)
        #expect(o["subscription"]?["status"] == "refunded")
        f.service.clock.set("2026-12-01T00:00:00Z")
        #expect(try offer(f)["plan"]?["current"] == "free")
    }

    @Test("T5: the same transaction signed again, or its refunded copy, changes nothing and answers 200 with the subscription as it is")
    func t5ResignedIsTheSame() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let first = try f.record(tx(token, .plus, id: "t1", signed: "2026-11-14T00:00:00Z"), org: "acme")
        #expect(first.status == 200 && first.body["recorded"] == true)
        try f.settle()
        let head = try f.service.store.log.headPosition()
        let resigned = try f.record(tx(token, .plus, id: "t1", signed: "2026-11-15T00:00:00Z", purchased: "2026-11-14T00:00:00Z"), org: "acme")
        #expect(resigned.status == 200 && resigned.body["recorded"] == false, "\(resigned.body)")
        #expect(resigned.body["subscription"] == first.body["subscription"])
        let refunded = try f.record(tx(token, .plus, id: "t1", signed: "2026-11-15T00:00:00Z", purchased: "2026-11-14T00:00:00Z",
                                       revoked: "2026-11-15T00:00:00Z"), org: "acme")
        #expect(refunded.status == 200 && refunded.body["recorded"] == false, "\(refunded.body)")
        #expect(try f.service.store.log.headPosition() == head, "nothing appended")
    }

    @Test("O12: an expired subscription shows expired; an App Store downgrade, end or lapse shows in plan.pending")
    func o12ExpiredAndPending() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        // Bought in October for a month; no renewal and no EXPIRED notification came.
        #expect(try f.notify(note("SUBSCRIBED", tx(token, .plus, id: "t1", signed: "2026-10-20T00:00:00Z", expires: "2026-11-05T00:00:00Z"),
                                  signed: "2026-10-20T00:00:00Z")).status == 200)
        var o = try offer(f)
        #expect(o["subscription"]?["status"] == "expired" && o["subscription"]?["expires_at"] == "2026-11-05T00:00:00.000000Z")
        #expect(o["plan"]?["current"] == "plus", "what was granted for the month is not taken back")
        #expect(o["plan"]?["pending"] == ["plan": "free", "from": "2026-12-01T00:00:00.000000Z"])
        // A renewal to Premium, then a downgrade when Plus renews: pending until the month ends.
        #expect(try f.notify(note("DID_RENEW", tx(token, .premium, id: "t2", signed: "2026-11-10T00:00:00Z", expires: "2026-12-10T00:00:00Z"),
                                  signed: "2026-11-10T00:00:00Z")).status == 200)
        #expect(try f.notify(note("DID_RENEW", tx(token, .plus, id: "t3", signed: "2026-11-14T00:00:00Z", expires: "2026-12-14T00:00:00Z"),
                                  signed: "2026-11-14T00:00:00Z")).status == 200)
        o = try offer(f)
        #expect(o["subscription"]?["status"] == "active" && o["plan"]?["current"] == "premium")
        #expect(o["plan"]?["pending"] == ["plan": "plus", "from": "2026-12-01T00:00:00.000000Z"], "\(o["plan"] ?? .null)")
    }

    @Test("O13: the offer's 401 and 404 are private and not stored either")
    func o13ProblemsAreNotStored() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        let anonymous = try f.offer("acme", as: nil)
        #expect(anonymous.status == 401 && anonymous.headers["Cache-Control"] == "private, no-store")
        let stranger = try f.offer("acme", as: f.session("mallory", org: "acme"))
        #expect(stranger.status == 404 && stranger.headers["Cache-Control"] == "private, no-store")
        let missing = try f.offer("nope", as: f.session("alice", org: "nope"))
        #expect(missing.status == 404 && missing.headers["Cache-Control"] == "private, no-store")
    }
}
