import API
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("Recording a StoreKit 2 transaction (T1–T7)", .bounded)
struct TransactionRuleTests {
    @Test("T1: a verified transaction is recorded and puts the organization on its plan")
    func t1Records() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let jws = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                     signedDate: t("2026-11-14T00:00:00Z"))
        let (status, body) = try f.record(jws, org: "acme")
        #expect(status == 200, "\(body)")
        #expect(body["recorded"] == true)
        #expect(body["plan"]?["current"] == "plus" && body["plan"]?["source"] == "app_store")
        #expect(body["subscription"]?["plan"] == "plus" && body["subscription"]?["held_by_reader"] == true)
        #expect(try f.currentPlan("acme")?["current"] == "plus")
    }

    @Test("O10, T5: the buyer holds the subscription whichever of SUBSCRIBED and the app's post comes first",
          arguments: [true, false])
    func buyerHoldsWhateverComesFirst(notificationFirst: Bool) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme", admins: ["alice", "bob"])
        let signed = "2026-11-14T00:00:00Z"
        let jws = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox", signedDate: t(signed),
                                     transactionID: "t1", originalTransactionID: "o1", purchaseDate: t(signed))
        let notification = signer.notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: jws,
                                               renewal: signer.renewalInfo(originalTransactionID: "o1", environment: "Sandbox", signedDate: t(signed)),
                                               environment: "Sandbox", signedDate: t(signed), notificationUUID: UUID())
        if notificationFirst {
            #expect(try f.notify(notification).status == 200)
            // The projection may not have folded it yet: the app's post reads the log.
        }
        let posted = try f.record(jws, org: "acme", as: "alice")
        #expect(posted.status == 200, "\(posted.body)")
        #expect(posted.body["subscription"]?["held_by_reader"] == true, "\(posted.body)")
        if !notificationFirst { #expect(try f.notify(notification).status == 200) }
        let head = try f.service.store.log.headPosition()
        // Sent again, by its buyer or by another administrator, it changes nothing more (T5).
        #expect(try f.record(jws, org: "acme", as: "alice").body["recorded"] == false)
        #expect(try f.record(jws, org: "acme", as: "bob").body["subscription"]?["held_by_reader"] == false)
        #expect(try f.service.store.log.headPosition() == head, "a holder is recorded once, and only when new")
        // O10: alice may change plan within the group (premium offered, plus held by her own
        // subscription); bob sees plus held through another subscription.
        let alice = try f.offer("acme", as: f.session("alice", org: "acme"))
        #expect(alice.body["subscription"]?["held_by_reader"] == true)
        #expect(plans(alice.body) == ["plus", "premium"], "\(alice.body)")
        let bob = try f.offer("acme", as: f.session("bob", org: "acme"))
        #expect(bob.body["subscription"]?["held_by_reader"] == false)
        #expect(plans(bob.body) == ["premium"], "\(bob.body)")
        let claims = try f.service.store.log.readStream("appstore-sub-o1").filter { $0.type == AppStoreSubscriptionClaimed.type }
        #expect(claims.count == (notificationFirst ? 1 : 0), "a claim only when the notification came first: \(claims.map(\.type))")
    }

    @Test("T2: a designated administrator, same origin, and the CSRF header are required")
    func t2Requirements() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let jws = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox")
        let head = try f.service.store.log.headPosition()
        #expect(try f.record(jws, org: "acme", csrf: nil).body["code"] == "csrf_failed")
        #expect(try f.record(jws, org: "acme", csrf: "wrong").body["code"] == "csrf_failed")
        #expect(try f.record(jws, org: "acme", origin: "https://evil.example").body["code"] == "cross_origin")
        #expect(try f.record(jws, org: "acme", origin: nil).body["code"] == "cross_origin")
        #expect(try f.record(jws, org: "acme", as: "mallory").status == 404)
        #expect(try f.service.store.log.headPosition() == head, "nothing recorded")
        // Staff may see the offer but not buy.
        var headers: [(String, String)] = [f.session("sam", org: nil, staff: true), ("Content-Type", "application/json"),
                                           ("Origin", TestService.origin), ("X-CSRF-Token", "csrf-token")]
        headers.append(("Sec-Fetch-Site", "same-origin"))
        let r = try f.service.client().send(method: "POST", path: "/v1/orgs/acme/appstore/transactions", headers: headers,
                                            body: (["signed_transaction": .string(jws)] as JSONValue).compactBytes())
        #expect(r.status == 403)
    }

    @Test("T3: the JWS, bundle, product, environment and account token are verified; the token compares as a UUID")
    func t3Verification() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let good = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox")
        var tampered = Array(good)
        let i = tampered.count - 10
        tampered[i] = tampered[i] == "A" ? "B" : "A"
        #expect(try f.record(String(tampered), org: "acme").body["code"] == "app_store_transaction_invalid")
        var otherApp = signer
        otherApp.bundleID = "com.example.other"
        #expect(try f.record(otherApp.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox"), org: "acme")
            .body["code"] == "app_store_transaction_invalid")
        #expect(try f.record(signer.transaction(productID: "ai.screenrig.stickers", appAccountToken: token, environment: "Sandbox"), org: "acme")
            .body["code"] == "app_store_transaction_invalid")
        // Outside production, Production payloads are not accepted (T3: Production only in production).
        #expect(try f.record(signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Production"), org: "acme")
            .body["code"] == "app_store_transaction_invalid")
        #expect(try f.record(signer.transaction(productID: products[.plus]!, appAccountToken: UUID(), environment: "Sandbox"), org: "acme")
            .body["code"] == "app_store_account_mismatch")
        let upper = signer.transaction(productID: products[.plus]!, environment: "Sandbox",
                                       extra: ["appAccountToken": .string(token.uuidString.uppercased())])
        #expect(try f.record(upper, org: "acme").status == 200)
    }

    @Test("T4: the plan follows the latest transaction: higher at once, lower at the next start of a UTC month")
    func t4LatestTransaction() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let plus = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                      signedDate: t("2026-11-02T00:00:00Z"), transactionID: "t1", originalTransactionID: "o1")
        #expect(try f.record(plus, org: "acme").status == 200)
        let premium = signer.transaction(productID: products[.premium]!, appAccountToken: token, environment: "Sandbox",
                                         signedDate: t("2026-11-05T00:00:00Z"), transactionID: "t2", originalTransactionID: "o1")
        #expect(try f.record(premium, org: "acme").status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "premium")
        let back = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                      signedDate: t("2026-11-10T00:00:00Z"), transactionID: "t3", originalTransactionID: "o1")
        #expect(try f.record(back, org: "acme").status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "premium", "the month keeps what was granted")
        f.service.clock.set("2026-12-01T00:00:00Z")
        #expect(try f.currentPlan("acme")?["current"] == "plus")
    }

    @Test("T5: the same or an older transaction again changes nothing; an expired one is recorded and changes no plan")
    func t5Idempotent() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let premium = signer.transaction(productID: products[.premium]!, appAccountToken: token, environment: "Sandbox",
                                         signedDate: t("2026-11-10T00:00:00Z"), transactionID: "t2", originalTransactionID: "o1")
        #expect(try f.record(premium, org: "acme").body["recorded"] == true)
        let head = try f.service.store.log.headPosition()
        let again = try f.record(premium, org: "acme")
        #expect(again.status == 200 && again.body["recorded"] == false)
        #expect(again.body["subscription"]?["plan"] == "premium")
        #expect(try f.service.store.log.headPosition() == head)
        let older = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                       signedDate: t("2026-11-01T00:00:00Z"), transactionID: "t1", originalTransactionID: "o1")
        #expect(try f.record(older, org: "acme").status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "premium")
        f.service.clock.set("2026-12-05T00:00:00Z")   // past the month start a downgrade would wait for, before t2 expires
        #expect(try f.currentPlan("acme")?["current"] == "premium", "an older transaction is not a downgrade")

        try f.org("late")
        let lateToken = try #require(try f.offer("late", as: f.session("alice", org: "late")).body["account_token"]?.stringValue)
        let expired = signer.transaction(productID: products[.plus]!, appAccountToken: UUID(uuidString: lateToken), environment: "Sandbox",
                                         signedDate: t("2026-10-01T00:00:00Z"), expiresDate: t("2026-11-01T00:00:00Z"))
        let r = try f.record(expired, org: "late")
        #expect(r.status == 200 && r.body["recorded"] == true)
        #expect(try f.currentPlan("late")?["current"] == "free")
    }

    @Test("T7: the problems and their statuses", arguments: ["education_not_eligible", "app_store_plan_conflict", "billed_by_reseller"])
    func t7Problems(_ code: String) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        var product = products[.plus]!
        var expected = 409
        switch code {
        case "education_not_eligible":
            product = products[.education]!
            expected = 403
        case "app_store_plan_conflict":
            try f.orgEvent(StaffPlanDecided(orgID: "acme", plan: .premium), "acme")
        default:
            try f.orgEvent(DelegatedToReseller(orgID: "acme", resellerID: "r"), "acme")
        }
        let head = try f.service.store.log.headPosition()
        let r = try f.record(signer.transaction(productID: product, appAccountToken: token, environment: "Sandbox"), org: "acme")
        #expect(r.status == expected && r.body["code"] == .string(code), "\(r.body)")
        #expect(try f.service.store.log.headPosition() == head, "nothing recorded")
        if code == "app_store_plan_conflict" {
            // The detail names what holds the plan, not "another source".
            #expect(r.body["detail"] == "the organization already holds premium (at this level or higher) through a staff grant", "\(r.body)")
        }
    }

    @Test("T6: every answer is definitive: a 2xx or a 4xx sent again is the same answer, and a 4xx recorded nothing")
    func t6Definitive() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let refused = [
            signer.transaction(productID: products[.plus]!, appAccountToken: UUID(), environment: "Sandbox"),          // 409
            signer.transaction(productID: "ai.screenrig.stickers", appAccountToken: token, environment: "Sandbox"),    // 422
            signer.transaction(productID: products[.education]!, appAccountToken: token, environment: "Sandbox"),      // 403
        ]
        for jws in refused {
            let head = try f.service.store.log.headPosition()
            let first = try f.record(jws, org: "acme")
            let second = try f.record(jws, org: "acme")
            #expect((400..<500).contains(first.status), "\(first.body)")
            #expect(second.status == first.status && second.body["code"] == first.body["code"])
            #expect(try f.service.store.log.headPosition() == head, "a 4xx records nothing, so finishing loses nothing")
        }
        let good = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox")
        let first = try f.record(good, org: "acme")
        let second = try f.record(good, org: "acme")
        #expect(first.status == 200 && second.status == 200)
        #expect(first.body["recorded"] == true && second.body["recorded"] == false)
        #expect(second.body["subscription"] == first.body["subscription"])
    }

    @Test("O8 through T: a school administrator's education purchase makes the organization eligible and is recorded")
    func educationByEmail() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("school")
        let r = try f.record(signer.transaction(productID: products[.education]!, appAccountToken: token, environment: "Sandbox",
                                                signedDate: t("2026-11-14T00:00:00Z")),
                             org: "school", email: "t@west.k12.or.us")
        #expect(r.status == 200 && r.body["plan"]?["current"] == "education")
    }
}
