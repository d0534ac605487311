import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// Refund requests (docs/appstore.md, "Refund requests"): what the notification records,
/// what the ledger would tell Apple, and the one answer, with no database.
@Suite("Refund requests are recorded, answered from the ledger's facts within Apple's ranges, and only with consent", .bounded)
struct ConsumptionDeciderTests {
    static let signed = Timestamp(iso8601: "2026-11-15T12:00:00Z")!
    static let token = UUID(uuidString: "6f0b1a10-1e0c-4a3d-9d43-3d9c2b1f7a01")!
    static let day: Int64 = 86_400_000_000

    static func request(org: String? = "org1") -> AppStoreConsumptionRequested {
        AppStoreConsumptionRequested(orgID: org, originalTransactionID: "2000000000", transactionID: "2000000001", productID: "p.plus",
                                     bundleID: "ai.screenrig.app", notificationUUID: "0d9a6a5e-6c2b-4a0e-9e1d-1b6c9a1f2e3d",
                                     signedDate: signed, environment: "Sandbox")
    }

    static func customer(createdDaysAgo: Int64? = 40, firstPurchaseDaysAgo: Int64? = nil, refunded: Int = 0, cents: Int64? = nil,
                         trial: Bool = false) -> ConsumptionCustomer {
        func ago(_ days: Int64?) -> Timestamp? { days.flatMap { Timestamp(microseconds: signed.microseconds - $0 * day) } }
        return ConsumptionCustomer(orgID: "org1", accountToken: token, createdAt: ago(createdDaysAgo), firstPurchase: ago(firstPurchaseDaysAgo),
                                   refundedSubscriptions: refunded, refundedUSCents: cents, hadFreeTrial: trial)
    }

    static func at(hours: Double) -> Timestamp { Timestamp(microseconds: signed.microseconds + Int64(hours * 3_600_000_000))! }

    static let consent = ConsumptionPolicy(consent: true)

    @Test("CONSUMPTION_REQUEST with a transaction records the request on the subscription, respond_by 12 h after Apple signed it, keyed on its UUID")
    func recordsTheRequest() throws {
        let t = AppStoreTransactionFacts(transactionID: "2000000001", originalTransactionID: "2000000000", productID: "anything",
                                         purchaseDate: Self.signed, expiresDate: nil, revocationDate: nil, signedDate: Self.signed,
                                         environment: "Sandbox", appAccountToken: Self.token)
        let n = AppStoreDecider.Notification(notificationUUID: "u-1", type: "CONSUMPTION_REQUEST", subtype: nil, signedDate: Self.signed,
                                             environment: "Sandbox", transaction: t, bundleID: "ai.screenrig.app")
        let products = AppStoreProducts([.plus: "p.plus"])
        for org in ["org1", nil] as [String?] {
            let outcome = try AppStoreDecider.notification(n, receivedAt: "sandbox", orgID: org, products: products)
            #expect(outcome.outcome == "consumption_requested")
            #expect(outcome.decision.idempotencyKey == "apple-notification:u-1")
            let event = try #require(outcome.decision.events.first)
            #expect(event.stream == "appstore-sub-2000000000")
            let e = try event.decode(AppStoreConsumptionRequested.self)
            #expect(e.orgID == org && e.transactionID == "2000000001" && e.bundleID == "ai.screenrig.app")
            #expect(e.respondBy == Self.at(hours: 12))
            #expect(event.data["respond_by"]?.stringValue == Self.at(hours: 12).iso8601)
        }
        // Without a transaction there is nothing to answer for: acknowledged.
        var bare = n
        bare.transaction = nil
        let acknowledged = try AppStoreDecider.notification(bare, receivedAt: "sandbox", orgID: nil, products: products)
        #expect(acknowledged.decision.events.first?.type == AppStoreNotificationAcknowledged.type)
        // Sent to the other environment's URL: refused, as every notification (N7).
        #expect(throws: Refusal.self) { try AppStoreDecider.notification(n, receivedAt: "production", orgID: "org1", products: products) }
    }

    @Test("accountTenure buckets at their edges: each edge belongs to the bucket it starts; unknown is 0")
    func tenureEdges() {
        let cases: [(Int64, Int)] = [(0, 1), (3 * Self.day - 1, 1), (3 * Self.day, 2), (10 * Self.day - 1, 2), (10 * Self.day, 3),
                                     (30 * Self.day - 1, 3), (30 * Self.day, 4), (90 * Self.day - 1, 4), (90 * Self.day, 5),
                                     (180 * Self.day - 1, 5), (180 * Self.day, 6), (365 * Self.day - 1, 6), (365 * Self.day, 7),
                                     (3_000 * Self.day, 7)]
        for (age, bucket) in cases {
            let start = Timestamp(microseconds: Self.signed.microseconds - age)!
            #expect(ConsumptionDecider.accountTenure(since: start, at: Self.signed) == bucket, "age \(age) µs")
        }
        #expect(ConsumptionDecider.accountTenure(since: nil, at: Self.signed) == 0)
        #expect(ConsumptionDecider.accountTenure(since: Self.at(hours: 1), at: Self.signed) == 1, "a start after the request counts as 0 days")
    }

    @Test("tenure counts from the organization's creation or its first App Store purchase, whichever came first")
    func tenureFromTheEarlierStart() throws {
        #expect(Self.customer(createdDaysAgo: 5, firstPurchaseDaysAgo: 400).customerSince == Timestamp(microseconds: Self.signed.microseconds - 400 * Self.day))
        for (created, purchase, bucket) in [(5, nil, 2), (nil, 40, 4), (400, 2, 7), (nil, nil, 0)] as [(Int64?, Int64?, Int)] {
            guard case .send(let i) = ConsumptionDecider.verdict(for: Self.request(), customer: Self.customer(createdDaysAgo: created, firstPurchaseDaysAgo: purchase),
                                                               policy: Self.consent, now: Self.at(hours: 1)) else {
                Issue.record("not sent")
                return
            }
            #expect(i.accountTenure == bucket)
        }
    }

    @Test("lifetime dollars: refunds in US cents to Apple's buckets; undeclared when the prices are not known")
    func dollarBuckets() {
        let cases: [(Int64, Int)] = [(0, 1), (1, 2), (4_999, 2), (5_000, 3), (9_999, 3), (10_000, 4), (49_999, 4), (50_000, 5),
                                     (99_999, 5), (100_000, 6), (199_999, 6), (200_000, 7), (10_000_000, 7)]
        for (cents, bucket) in cases { #expect(ConsumptionDecider.dollarsBucket(cents: cents) == bucket, "\(cents) cents") }
        let unknown = ConsumptionDecider.information(for: Self.request(), customer: Self.customer(refunded: 2), policy: Self.consent)
        #expect(unknown.lifetimeDollarsRefunded == 0 && unknown.lifetimeDollarsPurchased == 0)
        let known = ConsumptionDecider.information(for: Self.request(), customer: Self.customer(refunded: 1, cents: 999), policy: Self.consent)
        #expect(known.lifetimeDollarsRefunded == 2)
    }

    @Test("with consent, the fields are within Apple's ranges: delivered, on Apple's platform, an active account, the organization's token")
    func fieldsInApplesRanges() throws {
        for preference in 0...3 {
            for trial in [false, true] {
                let policy = ConsumptionPolicy(consent: true, refundPreference: preference)
                guard case .send(let i) = ConsumptionDecider.verdict(for: Self.request(), customer: Self.customer(trial: trial), policy: policy,
                                                                   now: Self.at(hours: 11.9)) else {
                    Issue.record("not sent")
                    return
                }
                #expect(i.problems.isEmpty, "\(i.problems)")
                #expect(i.customerConsented && i.deliveryStatus == 0 && i.platform == 1 && i.userStatus == 1)
                #expect(i.consumptionStatus == 0 && i.playTime == 0, "undeclared: the ledger does not know them")
                #expect(i.appAccountToken == Self.token && i.refundPreference == preference && i.sampleContentProvided == trial)
                #expect(i.accountTenure == 4)
            }
        }
        // A preference outside Apple's range never reaches Apple: undeclared.
        let odd = ConsumptionDecider.information(for: Self.request(), customer: Self.customer(), policy: ConsumptionPolicy(consent: true, refundPreference: 9))
        #expect(odd.refundPreference == 0 && odd.problems.isEmpty)
        var outside = odd
        outside.accountTenure = 8
        outside.customerConsented = false
        #expect(outside.problems.count == 2)
    }

    @Test("consent off (the default): declined, nothing to send, whatever the organization")
    func consentOffDeclines() throws {
        #expect(ConsumptionPolicy() == ConsumptionPolicy(consent: false, refundPreference: 0))
        for customer in [Self.customer(), nil] {
            let verdict = ConsumptionDecider.verdict(for: Self.request(org: customer == nil ? nil : "org1"), customer: customer,
                                                     policy: ConsumptionPolicy(), now: Self.at(hours: 1))
            #expect(verdict == .record(.declined(reason: ConsumptionReason.noConsent)))
        }
        let decision = try ConsumptionDecider.answer(.declined(reason: ConsumptionReason.noConsent), to: Self.request(), answered: false,
                                                     now: Self.at(hours: 1))
        let event = try #require(decision.events.first)
        let e = try event.decode(AppStoreConsumptionAnswered.self)
        #expect(e.outcome == .declined && e.reason == "no_consent" && e.information == nil)
        #expect(event.idempotencyKey == "appstore-consumption:0d9a6a5e-6c2b-4a0e-9e1d-1b6c9a1f2e3d")
        #expect(event.stream == "appstore-sub-2000000000")
    }

    @Test("a request naming no organization is declined; past respond_by it has expired, whatever else holds")
    func noOrganizationAndExpiry() throws {
        #expect(ConsumptionDecider.verdict(for: Self.request(org: nil), customer: nil, policy: Self.consent, now: Self.at(hours: 1))
                == .record(.declined(reason: ConsumptionReason.noOrganization)))
        for policy in [Self.consent, ConsumptionPolicy()] {
            guard case .record(.expired) = ConsumptionDecider.verdict(for: Self.request(), customer: Self.customer(), policy: policy,
                                                                     now: Self.at(hours: 12)) else {
                Issue.record("not expired at 12 h")
                return
            }
        }
        #expect(throws: Refusal.self, "expired before its time") {
            try ConsumptionDecider.answer(.expired(detail: "x"), to: Self.request(), answered: false, now: Self.at(hours: 11.99))
        }
        #expect(throws: Refusal.self, "no organization, when it names one") {
            try ConsumptionDecider.answer(.declined(reason: ConsumptionReason.noOrganization), to: Self.request(), answered: false, now: Self.at(hours: 1))
        }
        let expired = try ConsumptionDecider.answer(.expired(detail: "late"), to: Self.request(), answered: false, now: Self.at(hours: 13))
        #expect(try expired.events[0].decode(AppStoreConsumptionAnswered.self).outcome == .expired)
    }

    @Test("one answer per request; what is sent must be within Apple's ranges with consent; a final refusal is Apple's 4xx")
    func answerInvariants() throws {
        let info = ConsumptionDecider.information(for: Self.request(), customer: Self.customer(), policy: Self.consent)
        #expect(throws: Refusal.self) { try ConsumptionDecider.answer(.sent(info), to: Self.request(), answered: true, now: Self.at(hours: 1)) }
        var bad = info
        bad.userStatus = 5
        #expect(throws: Refusal.self) { try ConsumptionDecider.answer(.sent(bad), to: Self.request(), answered: false, now: Self.at(hours: 1)) }
        var unconsented = info
        unconsented.customerConsented = false
        #expect(throws: Refusal.self) { try ConsumptionDecider.answer(.sent(unconsented), to: Self.request(), answered: false, now: Self.at(hours: 1)) }
        #expect(throws: Refusal.self) {
            try ConsumptionDecider.answer(.refused(info, status: 503, code: "server_error", appleErrorCode: nil, message: "x"), to: Self.request(),
                                          answered: false, now: Self.at(hours: 1))
        }
        let refused = try ConsumptionDecider.answer(.refused(info, status: 400, code: "invalid_transaction_id", appleErrorCode: 4_000_006,
                                                             message: "Invalid transaction id."), to: Self.request(), answered: false,
                                                    now: Self.at(hours: 1))
        let e = try refused.events[0].decode(AppStoreConsumptionAnswered.self)
        #expect(e.outcome == .failed && e.reason == "invalid_transaction_id" && e.status == 400 && e.appleErrorCode == 4_000_006)
        #expect(e.information == info)
        let sent = try ConsumptionDecider.answer(.sent(info), to: Self.request(), answered: false, now: Self.at(hours: 1))
        let data = sent.events[0].data
        #expect(data["outcome"] == "sent" && data["information"]?["account_tenure"] == 4 && data["information"]?["customer_consented"] == true)
    }

    @Test("the stream's request and answer are found by UUID, among the subscription's other facts")
    func findsTheRequest() throws {
        let request = PendingEvent(Self.request(), on: "appstore-sub-2000000000")
        let other = PendingEvent(AppStoreSubscriptionEnded(orgID: "org1", originalTransactionID: "2000000000", reason: "REFUND",
                                                           signedDate: Self.signed, notificationUUID: Self.request().notificationUUID),
                                 on: "appstore-sub-2000000000")
        let answer = try ConsumptionDecider.answer(.declined(reason: ConsumptionReason.noConsent), to: Self.request(), answered: false,
                                                   now: Self.at(hours: 1)).events[0]
        let uuid = Self.request().notificationUUID
        var found = try ConsumptionDecider.find(uuid, in: [request, other].map { ($0.type, $0.data) })
        #expect(found.request == Self.request() && !found.answered)
        found = try ConsumptionDecider.find(uuid, in: [request, other, answer].map { ($0.type, $0.data) })
        #expect(found.answered)
        #expect(try ConsumptionDecider.find("another", in: [request].map { ($0.type, $0.data) }).request == nil)
    }
}
