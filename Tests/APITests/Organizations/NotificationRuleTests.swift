import API
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("App Store Server Notifications V2 (N1–N8)", .bounded)
struct NotificationRuleTests {
    func tx(_ token: UUID?, _ plan: Plan, original: String = "o1", id: String, signed: String, purchased: String? = nil) -> String {
        signer.transaction(productID: products[plan]!, appAccountToken: token, environment: "Sandbox", signedDate: t(signed),
                           transactionID: id, originalTransactionID: original, purchaseDate: purchased.map(t) ?? t(signed))
    }

    func note(_ type: String, subtype: String? = nil, _ transaction: String?, signed: String, uuid: UUID = UUID()) -> String {
        signer.notification(type: type, subtype: subtype, transaction: transaction,
                            renewal: signer.renewalInfo(originalTransactionID: "o1", environment: "Sandbox", signedDate: t(signed)),
                            environment: "Sandbox", signedDate: t(signed), notificationUUID: uuid)
    }

    @Test("N1, N7: production and sandbox URLs take {signedPayload}; 200 acknowledges; the environment must match the URL")
    func n1Endpoints() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let n = note("SUBSCRIBED", subtype: "INITIAL_BUY", tx(token, .plus, id: "t1", signed: "2026-11-10T00:00:00Z"), signed: "2026-11-10T00:00:00Z")
        let r = try f.notify(n, environment: "sandbox")
        #expect(r.status == 200 && r.body["status"] == "acknowledged" && r.body["outcome"] == "applied")
        #expect(try f.notify(n, environment: "production").status == 422, "a Sandbox payload at the production URL")
        let raw = try f.service.client().send(method: "POST", path: "/v1/appstore/notifications/sandbox",
                                              headers: [("Content-Type", "application/json")], body: Array("{".utf8))
        #expect(raw.status == 400)
    }

    @Test("N2, N7: a payload that does not verify, or whose nested transaction does not, is a 422")
    func n2Verification() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        var tampered = Array(tx(token, .plus, id: "t1", signed: "2026-11-10T00:00:00Z"))
        tampered[tampered.count - 5] = tampered[tampered.count - 5] == "A" ? "B" : "A"
        let r = try f.notify(note("SUBSCRIBED", String(tampered), signed: "2026-11-10T00:00:00Z"))
        #expect(r.status == 422 && r.body["code"] == "app_store_transaction_invalid")
        var outer = Array(note("SUBSCRIBED", tx(token, .plus, id: "t2", signed: "2026-11-10T00:00:00Z"), signed: "2026-11-10T00:00:00Z"))
        outer[outer.count - 3] = outer[outer.count - 3] == "A" ? "B" : "A"
        #expect(try f.notify(String(outer)).status == 422)
    }

    @Test("N3: SUBSCRIBED and renewals apply the latest transaction; an upgrade at once, a downgrade when the lower product renews")
    func n3Apply() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        #expect(try f.notify(note("SUBSCRIBED", tx(token, .plus, id: "t1", signed: "2026-11-01T00:00:00Z"), signed: "2026-11-01T00:00:00Z")).status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "plus")
        #expect(try f.notify(note("DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", tx(token, .premium, id: "t2", signed: "2026-11-05T00:00:00Z"),
                                  signed: "2026-11-05T00:00:00Z")).status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "premium")
        // A downgrade is a preference first (no new transaction) and a plan when the lower product renews.
        #expect(try f.notify(note("DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", tx(token, .premium, id: "t2", signed: "2026-11-05T00:00:00Z"),
                                  signed: "2026-11-08T00:00:00Z")).status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "premium")
        #expect(try f.notify(note("DID_RENEW", tx(token, .plus, id: "t3", signed: "2026-11-14T00:00:00Z"), signed: "2026-11-14T00:00:00Z")).status == 200)
        #expect(try f.currentPlan("acme")?["current"] == "premium")
        f.service.clock.set("2026-12-01T00:00:01Z")
        #expect(try f.currentPlan("acme")?["current"] == "plus")
    }

    @Test("N4: EXPIRED, GRACE_PERIOD_EXPIRED, REFUND and REVOKE remove the plan at the next month start, not before",
          arguments: ["EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE"])
    func n4End(_ type: String) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        #expect(try f.notify(note("SUBSCRIBED", tx(token, .premium, id: "t1", signed: "2026-11-01T00:00:00Z"), signed: "2026-11-01T00:00:00Z")).status == 200)
        let r = try f.notify(note(type, tx(token, .premium, id: "t1", signed: "2026-11-01T00:00:00Z"), signed: "2026-11-12T00:00:00Z"))
        // The status says how it ended (docs/appstore.md, "Lifecycle"); the plan goes the same way for every end.
        let how = ["EXPIRED": "expired", "GRACE_PERIOD_EXPIRED": "expired", "REFUND": "refunded", "REVOKE": "revoked"][type]!
        #expect(r.status == 200 && r.body["outcome"]?.stringValue == how)
        #expect(try f.currentPlan("acme")?["current"] == "premium", "what was granted for the month is not taken back")
        f.service.clock.set("2026-12-01T00:00:00Z")
        #expect(try f.currentPlan("acme")?["current"] == "free")
        #expect(try f.offer("acme", as: f.session("alice", org: "acme")).body["subscription"]?["status"]?.stringValue == how)
    }

    @Test("N5: a plan staff or billing applied since is never removed by the App Store")
    func n5OtherSources() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        _ = try f.notify(note("SUBSCRIBED", tx(token, .premium, id: "t1", signed: "2026-11-01T00:00:00Z"), signed: "2026-11-01T00:00:00Z"))
        try f.orgEvent(BillingPlanChanged(orgID: "acme", plan: .plus), "acme")
        _ = try f.notify(note("EXPIRED", tx(token, .premium, id: "t1", signed: "2026-11-01T00:00:00Z"), signed: "2026-11-13T00:00:00Z"))
        f.service.clock.set("2026-12-02T00:00:00Z")
        let plan = try f.currentPlan("acme")
        #expect(plan?["current"] == "plus" && plan?["source"] == "billing")
    }

    @Test("N6: another type, a product that is not a plan, or no organization is acknowledged, logged and changes nothing")
    func n6Acknowledged() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let cases = [
            note("ONE_TIME_CHARGE", tx(token, .plus, id: "t1", signed: "2026-11-02T00:00:00Z"), signed: "2026-11-02T00:00:00Z"),
            signer.notification(type: "SUBSCRIBED", transaction: signer.transaction(productID: "ai.screenrig.stickers", appAccountToken: token,
                                environment: "Sandbox"), environment: "Sandbox"),
            note("SUBSCRIBED", tx(nil, .plus, id: "t3", signed: "2026-11-02T00:00:00Z"), signed: "2026-11-02T00:00:00Z"),
            note("SUBSCRIBED", tx(UUID(), .plus, id: "t4", signed: "2026-11-02T00:00:00Z"), signed: "2026-11-02T00:00:00Z"),
            signer.notification(type: "TEST", environment: "Sandbox"),
        ]
        for n in cases {
            let r = try f.notify(n)
            #expect(r.status == 200 && r.body["outcome"]?.stringValue?.hasPrefix("ignored") == true, "\(r.body)")
        }
        try f.settle()
        #expect(try f.service.db.connect().query("SELECT count(*) FROM proj_organizations.appstore_acknowledged")[0].int64(0) == 5)
        #expect(try f.currentPlan("acme")?["current"] == "free")
        #expect(f.service.logs.lines.contains { $0.contains("app store notification") && $0.contains("ONE_TIME_CHARGE") })
    }

    @Test("N8: an address that sends too many notifications that do not verify gets 429 with Retry-After; Apple's own are never refused for load")
    func n8RateLimit() throws {
        let f = try BillingFixture(notificationsPerSecond: 5)
        defer { f.shutdown() }
        // Three times the rate, all signed by Apple (the test authority): every one recorded.
        for i in 0..<15 {
            let r = try f.notify(signer.notification(type: "TEST", environment: "Sandbox"))
            #expect(r.status == 200, "verified notification \(i): \(r.status) \(r.body)")
        }
        // What does not verify is counted against its address.
        var statuses: [Int] = []
        var retryAfter: String?
        for _ in 0..<15 {
            let r = try f.notify("not.a.jws")
            statuses.append(r.status)
            if r.status == 429 { retryAfter = r.headers["retry-after"] }
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 422 }, "a burst of twice the rate is answered 422: \(statuses)")
        #expect(statuses.contains(429))
        #expect(retryAfter.flatMap(Int.init).map { $0 >= 1 } == true)
        // And a verified one still gets through while its address is over the rate.
        #expect(try f.notify(signer.notification(type: "TEST", environment: "Sandbox")).status == 200)
    }

    @Test("DID_FAIL_TO_RENEW in a grace period: recorded, the subscription in_grace_period with its plan kept; a renewal after it (BILLING_RECOVERY) makes it active")
    func failedRenewalInGracePeriod() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let bought = note("SUBSCRIBED", subtype: "INITIAL_BUY", tx(token, .plus, id: "t1", signed: "2026-11-10T00:00:00Z"), signed: "2026-11-10T00:00:00Z")
        #expect(try f.notify(bought).body["outcome"] == "applied")
        let grace = t("2026-12-31T00:00:00Z")
        let renewal = signer.renewalInfo(originalTransactionID: "o1", environment: "Sandbox", signedDate: t("2026-11-14T00:00:00Z"),
                                         extra: ["gracePeriodExpiresDate": .integer(grace.microseconds / 1_000), "isInBillingRetryPeriod": true])
        let failed = signer.notification(type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD",
                                         transaction: tx(token, .plus, id: "t1", signed: "2026-11-14T00:00:00Z", purchased: "2026-11-10T00:00:00Z"),
                                         renewal: renewal, environment: "Sandbox", signedDate: t("2026-11-14T00:00:00Z"))
        let r = try f.notify(failed)
        #expect(r.status == 200 && r.body["outcome"] == "grace_period", "\(r.body)")
        try f.settle()
        let offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(offer["subscription"]?["status"] == "in_grace_period" && offer["plan"]?["current"] == "plus", "\(offer)")
        let recovered = note("DID_RENEW", subtype: "BILLING_RECOVERY", tx(token, .plus, id: "t2", signed: "2026-11-15T00:00:00Z"),
                             signed: "2026-11-15T00:00:00Z")
        #expect(try f.notify(recovered).body["outcome"] == "applied")
        try f.settle()
        let after = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(after["subscription"]?["status"] == "active" && after["plan"]?["current"] == "plus", "\(after)")
    }

    @Test("a notification delivered twice is acknowledged twice and recorded once")
    func deduplicated() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let n = note("SUBSCRIBED", tx(token, .plus, id: "t1", signed: "2026-11-02T00:00:00Z"), signed: "2026-11-02T00:00:00Z")
        #expect(try f.notify(n).body["outcome"] == "applied")
        let head = try f.service.store.log.headPosition()
        let again = try f.notify(n)
        #expect(again.status == 200 && again.body["outcome"] == "duplicate")
        #expect(try f.service.store.log.headPosition() == head)
    }

    /// One of Apple's facts about the subscription: a transaction (new, or the latest one
    /// signed again by `REFUND_REVERSED`), an end, or a price increase.
    struct Item {
        var plan: Plan?
        var signed: Timestamp
        /// The transaction's purchase (its first signing); nil for an end or a price increase.
        var purchase: Timestamp?
        /// An end's notification type.
        var end: String? = nil
        /// A price increase's subtype.
        var priceIncrease: String? = nil
    }

    static let month: Int64 = 30 * 86_400_000_000

    /// When a transaction the signer made expires: 30 days after its purchase, as Apple
    /// writes instants, in whole milliseconds.
    static func expiry(_ purchase: Timestamp) -> Timestamp {
        Timestamp(microseconds: purchase.microseconds / 1_000 * 1_000 + month)!
    }

    /// The model: walk a subscription's notifications in Apple's order (signedDate), never
    /// in delivery order, and apply T4/N4 by hand: a change that is not an upgrade of the
    /// plan in force waits for the next month start; a transaction signed again while the
    /// subscription is active changes nothing, and after an end restores it from its
    /// signing. A subscription whose last word is a transaction lapses when that
    /// transaction expires (the signer's 30 days), as EXPIRED would end it. An end's status
    /// is its type's: EXPIRED and GRACE_PERIOD_EXPIRED expired, REFUND refunded, REVOKE
    /// revoked. A price increase changes neither; the latest signed is shown. Returns the
    /// plan at `instant`, the status then and the price increase.
    static func reference(_ items: [Item], at instant: Timestamp) -> (plan: Plan?, status: String, priceIncrease: String?) {
        var schedule: [(Timestamp, Plan?)] = []
        var lastChange = Timestamp.minimum
        func apply(_ plan: Plan?, at: Timestamp) {
            let inForce = schedule.last { $0.0 <= at }?.1 ?? nil
            let up = (plan?.level ?? -1) > (inForce?.level ?? -1) || (plan != nil && plan?.level == inForce?.level)
            let from = up ? at : UTCMonth.nextStart(after: at)!
            schedule.removeAll { $0.0 >= from }
            schedule.append((from, plan))
            lastChange = at
        }
        var active = false
        var ended: String?
        var latestPurchase: Timestamp?
        var priceIncrease: String?
        for item in items.sorted(by: { $0.signed < $1.signed }) {
            if let subtype = item.priceIncrease {
                priceIncrease = subtype == "PENDING" ? "pending" : "accepted"
                continue
            }
            guard let purchase = item.purchase else {
                if active { apply(nil, at: item.signed) }
                active = false
                ended = ["EXPIRED": "expired", "GRACE_PERIOD_EXPIRED": "expired", "REFUND": "refunded", "REVOKE": "revoked"][item.end!]!
                continue
            }
            let again = latestPurchase == purchase
            latestPurchase = purchase
            if again && active { continue }
            apply(item.plan, at: item.signed)
            active = true
            ended = nil
        }
        if active, let latestPurchase {
            let expires = Self.expiry(latestPurchase)
            apply(nil, at: max(expires, lastChange))
        }
        let expired = latestPurchase.map { Self.expiry($0) <= instant } ?? false
        return (schedule.last { $0.0 <= instant }?.1 ?? nil, ended ?? (expired ? "expired" : "active"), priceIncrease)
    }

    @Test("N3, N4, lifecycle: generated notifications across month boundaries (ends of every kind, refunds reversed, price increases among them), delivered out of order and twice, give the plan, status and price increase Apple's signedDate decides", arguments: [1, 2, 3, 4] as [UInt64])
    func outOfOrder(seed: UInt64) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        var random = SeededRandom(seed: seed)
        var items: [Item] = []
        var payloads: [String] = []
        let day: Int64 = 86_400_000_000
        func instant(_ i: Int) -> Timestamp {
            Timestamp(microseconds: t("2026-09-01T00:00:00Z").microseconds + Int64(random.int(0...70)) * day + Int64(i))!
        }
        for i in 0..<8 {
            let signed = instant(i)
            if random.chance(0.25) {
                let type = random.pick(["EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE"])
                items.append(Item(plan: nil, signed: signed, purchase: nil, end: type))
                payloads.append(note(type, tx(token, .plus, id: "e\(i)", signed: signed.iso8601), signed: signed.iso8601))
            } else if random.chance(0.15) {
                let subtype = random.pick(["PENDING", "ACCEPTED"])
                items.append(Item(plan: nil, signed: signed, purchase: nil, priceIncrease: subtype))
                payloads.append(note("PRICE_INCREASE", subtype: subtype, tx(token, .plus, id: "p\(i)", signed: signed.iso8601), signed: signed.iso8601))
            } else {
                let plan = random.pick([Plan.plus, .premium])
                items.append(Item(plan: plan, signed: signed, purchase: signed))
                payloads.append(note(random.pick(["SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF"]),
                                     tx(token, plan, id: "t\(i)", signed: signed.iso8601), signed: signed.iso8601))
            }
        }
        // REFUND_REVERSED: the latest transaction signed before it, signed again.
        for i in 8..<(8 + random.int(1...3)) {
            let signed = instant(i)
            guard let latest = items.filter({ $0.purchase != nil && $0.signed < signed }).max(by: { $0.signed < $1.signed }),
                  let index = items.firstIndex(where: { $0.purchase != nil && $0.signed == latest.signed }) else { continue }
            items.append(Item(plan: latest.plan, signed: signed, purchase: latest.purchase))
            payloads.append(note("REFUND_REVERSED", tx(token, latest.plan!, id: "t\(index)", signed: signed.iso8601,
                                                       purchased: latest.purchase!.iso8601), signed: signed.iso8601))
        }
        var deliveries = payloads + payloads.filter { _ in random.chance(0.5) }
        deliveries.shuffle(using: &random)
        for d in deliveries { #expect(try f.notify(d).status == 200) }
        for probe in ["2026-09-20", "2026-10-15", "2026-11-02", "2026-12-03", "2027-01-04"] {
            f.service.clock.set(probe + "T00:00:00Z")
            let expected = Self.reference(items, at: t(probe + "T00:00:00Z"))
            let offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
            #expect(offer["plan"]?["current"]?.stringValue == (expected.plan ?? .free).rawValue, "seed \(seed) at \(probe)")
            #expect(offer["subscription"]?["status"]?.stringValue == expected.status,
                    "seed \(seed) at \(probe): \(items.sorted { $0.signed < $1.signed }.map { "\($0.signed.iso8601) \($0.end ?? $0.priceIncrease ?? $0.plan?.rawValue ?? "") \($0.purchase?.iso8601 ?? "")" })")
            #expect(offer["subscription"]?["price_increase"]?["status"]?.stringValue == expected.priceIncrease, "seed \(seed) at \(probe)")
        }
    }
}
