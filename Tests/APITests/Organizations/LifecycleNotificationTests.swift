import API
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// The subscription lifecycle of docs/appstore.md ("Lifecycle") end to end: notifications
/// signed by the test authority, posted to the HTTP endpoint, recorded by the API as its
/// own database role, folded by the projector and read back through the offer.
@Suite("App Store notifications: the subscription lifecycle, end to end", .bounded)
struct LifecycleNotificationTests {
    func tx(_ token: UUID, id: String = "t1", signed: String, purchased: String? = nil, revoked: String? = nil,
            extra: [String: JSONValue] = [:]) -> String {
        signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox", signedDate: t(signed),
                           transactionID: id, originalTransactionID: "o1", purchaseDate: purchased.map(t) ?? t(signed),
                           expiresDate: t("2027-11-01T00:00:00Z"), revocationDate: revoked.map(t), extra: extra)
    }

    func note(_ type: String, subtype: String? = nil, _ transaction: String?, signed: String,
              renewal: [String: JSONValue] = [:]) -> String {
        signer.notification(type: type, subtype: subtype, transaction: transaction,
                            renewal: signer.renewalInfo(originalTransactionID: "o1", environment: "Sandbox", signedDate: t(signed), extra: renewal),
                            environment: "Sandbox", signedDate: t(signed))
    }

    func subscription(_ f: BillingFixture) throws -> JSONValue {
        try f.settle()
        return try f.offer("acme", as: f.session("alice", org: "acme")).body["subscription"] ?? .null
    }

    @Test("refunded: REFUND answers and shows refunded, the plan kept to the month's end (N4); REFUND_REVERSED brings it back to active")
    func refunded() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        #expect(try f.notify(note("SUBSCRIBED", tx(token, signed: "2026-11-02T00:00:00Z"), signed: "2026-11-02T00:00:00Z")).body["outcome"] == "applied")
        let r = try f.notify(note("REFUND", tx(token, signed: "2026-11-10T00:00:00Z", purchased: "2026-11-02T00:00:00Z",
                                               revoked: "2026-11-10T00:00:00Z"), signed: "2026-11-10T00:00:00Z"))
        #expect(r.status == 200 && r.body["outcome"] == "refunded", "\(r.body)")
        #expect(try subscription(f)["status"] == "refunded")
        #expect(try f.currentPlan("acme")?["current"] == "plus")
        let back = try f.notify(note("REFUND_REVERSED", tx(token, signed: "2026-11-12T00:00:00Z", purchased: "2026-11-02T00:00:00Z"),
                                     signed: "2026-11-12T00:00:00Z"))
        #expect(back.body["outcome"] == "applied")
        #expect(try subscription(f)["status"] == "active")
        f.service.clock.set("2026-12-02T00:00:00Z")
        #expect(try f.currentPlan("acme")?["current"] == "plus")
    }

    @Test("revoked and familySharing: a Family Sharing transaction says who holds the plan; REVOKE ends it as revoked, the plan going at the next month start")
    func revokedFamilySharing() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let shared = tx(token, signed: "2026-11-02T00:00:00Z", extra: ["inAppOwnershipType": "FAMILY_SHARED"])
        #expect(try f.notify(note("SUBSCRIBED", subtype: "INITIAL_BUY", shared, signed: "2026-11-02T00:00:00Z")).body["outcome"] == "applied")
        var s = try subscription(f)
        #expect(s["status"] == "active" && s["ownership"] == "family_shared", "\(s)")
        #expect(try f.currentPlan("acme")?["current"] == "plus")
        let r = try f.notify(note("REVOKE", tx(token, signed: "2026-11-15T00:00:00Z", purchased: "2026-11-02T00:00:00Z",
                                               revoked: "2026-11-15T00:00:00Z", extra: ["inAppOwnershipType": "FAMILY_SHARED"]),
                                  signed: "2026-11-15T00:00:00Z"))
        #expect(r.status == 200 && r.body["outcome"] == "revoked", "\(r.body)")
        s = try subscription(f)
        #expect(s["status"] == "revoked" && s["ownership"] == "family_shared", "\(s)")
        #expect(try f.currentPlan("acme")?["current"] == "plus", "what was granted for the month is not taken back")
        f.service.clock.set("2026-12-01T00:00:00Z")
        #expect(try f.currentPlan("acme")?["current"] == "free")
        let bought = try subscription(f)
        #expect(bought["status"] == "revoked")
    }

    @Test("priceIncrease: PRICE_INCREASE PENDING then ACCEPTED is recorded and shown; the renewal info's priceIncreaseStatus speaks when there is no subtype")
    func priceIncrease() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        _ = try f.notify(note("SUBSCRIBED", tx(token, signed: "2026-11-02T00:00:00Z"), signed: "2026-11-02T00:00:00Z"))
        let pending = try f.notify(note("PRICE_INCREASE", subtype: "PENDING", tx(token, signed: "2026-11-05T00:00:00Z", purchased: "2026-11-02T00:00:00Z"),
                                        signed: "2026-11-05T00:00:00Z", renewal: ["priceIncreaseStatus": 0, "renewalPrice": 12_990]))
        #expect(pending.status == 200 && pending.body["outcome"] == "price_increase_pending", "\(pending.body)")
        var s = try subscription(f)
        #expect(s["price_increase"] == ["status": "pending", "signed_at": "2026-11-05T00:00:00.000000Z"], "\(s)")
        #expect(s["status"] == "active")
        let accepted = try f.notify(note("PRICE_INCREASE", tx(token, signed: "2026-11-07T00:00:00Z", purchased: "2026-11-02T00:00:00Z"),
                                         signed: "2026-11-07T00:00:00Z", renewal: ["priceIncreaseStatus": 1]))
        #expect(accepted.body["outcome"] == "price_increase_accepted", "\(accepted.body)")
        s = try subscription(f)
        #expect(s["price_increase"]?["status"] == "accepted")
        #expect(try f.currentPlan("acme")?["current"] == "plus")
    }

    @Test("offerAttribution and renewalExtension: the offer a transaction was bought with is shown; RENEWAL_EXTENDED moves the expiry; a RENEWAL_EXTENSION SUMMARY is acknowledged with what it says, a FAILURE shown on the subscription")
    func offerAndRenewalExtension() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let offer: [String: JSONValue] = ["offerType": 3, "offerIdentifier": "SPRING", "offerDiscountType": "FREE_TRIAL"]
        _ = try f.notify(note("OFFER_REDEEMED", tx(token, signed: "2026-11-02T00:00:00Z", extra: offer), signed: "2026-11-02T00:00:00Z"))
        var s = try subscription(f)
        #expect(s["offer"] == ["type": "offer_code", "code": 3, "identifier": "SPRING", "discount_type": "FREE_TRIAL"], "\(s)")
        #expect(s["ownership"] == "purchased")
        let extended = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                          signedDate: t("2026-11-06T00:00:00Z"), transactionID: "t1", originalTransactionID: "o1",
                                          purchaseDate: t("2026-11-02T00:00:00Z"), expiresDate: t("2027-12-01T00:00:00Z"), extra: offer)
        #expect(try f.notify(note("RENEWAL_EXTENDED", extended, signed: "2026-11-06T00:00:00Z")).body["outcome"] == "applied")
        s = try subscription(f)
        #expect(s["expires_at"] == "2027-12-01T00:00:00.000000Z" && s["renewal_extension"]?["status"] == "extended", "\(s)")
        let summary = signer.notification(type: "RENEWAL_EXTENSION", subtype: "SUMMARY", environment: "Sandbox", signedDate: t("2026-11-08T00:00:00Z"),
                                          extra: ["data": .null, "summary": ["requestIdentifier": "req-1", "environment": "Sandbox",
                                                                             "bundleId": "ai.screenrig.app", "productId": .string(products[.plus]!),
                                                                             "succeededCount": 41, "failedCount": 1]])
        let r = try f.notify(summary)
        #expect(r.status == 200 && r.body["outcome"]?.stringValue == "ignored: renewal date extension req-1 of \(products[.plus]!): 41 succeeded, 1 failed",
                "\(r.body)")
        let failed = try f.notify(note("RENEWAL_EXTENSION", subtype: "FAILURE", extended, signed: "2026-11-09T00:00:00Z"))
        #expect(failed.body["outcome"] == "renewal_extension_failed", "\(failed.body)")
        s = try subscription(f)
        #expect(s["renewal_extension"]?["status"] == "failed" && s["expires_at"] == "2027-12-01T00:00:00.000000Z", "\(s)")
    }
}
