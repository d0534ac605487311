import Foundation
import LedgerDomain
import Testing

/// Reconciliation's rules, without a database: Apple's status of a subscription against
/// the log's, and the facts that bring the log to Apple's (docs/appstore.md, "Reconciliation").
@Suite("Reconciliation decides the facts a missed notification would have recorded")
struct AppStoreReconciliationTests {
    let products = AppStoreProducts([.plus: "plus.monthly", .premium: "premium.monthly"])
    func ts(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    func facts(_ id: String, purchased: String, expires: String, revoked: String? = nil, ownership: String? = nil) -> AppStoreTransactionFacts {
        AppStoreTransactionFacts(transactionID: id, originalTransactionID: "100", productID: "plus.monthly", purchaseDate: ts(purchased),
                                 expiresDate: ts(expires), revocationDate: revoked.map(ts), signedDate: ts(purchased), environment: "Sandbox",
                                 appAccountToken: nil, inAppOwnershipType: ownership)
    }

    /// The log's view: transaction "100" for October.
    var logged: OrganizationPlans.Subscription {
        let t = SubscriptionFact.Transaction(transactionID: "100", productID: "plus.monthly", plan: .plus, purchase: ts("2026-10-10T00:00:00Z"),
                                             expires: ts("2026-11-10T00:00:00Z"), revoked: nil, expiredWhenRecorded: false)
        return OrganizationPlans.Subscription(originalTransactionID: "100", holder: nil,
                                              facts: [SubscriptionFact(.transaction(t), signed: ts("2026-10-10T00:00:00Z"), position: 1)])
    }

    func apple(_ status: Int, _ t: AppStoreTransactionFacts, grace: String? = nil) -> AppStoreReconciliation.AppleStatus {
        AppStoreReconciliation.AppleStatus(status: status, transaction: t, said: ts("2026-11-05T00:00:00Z"), gracePeriodExpires: grace.map(ts))
    }

    @Test("Apple agrees: nothing to record")
    func agrees() throws {
        let change = try #require(AppStoreReconciliation.reconcile(logged, apple: apple(1, facts("100", purchased: "2026-10-10T00:00:00Z", expires: "2026-11-10T00:00:00Z")),
                                                                   orgID: "acme", products: products, now: ts("2026-11-05T12:00:00Z")))
        #expect(change.events.isEmpty && change.before == .active && change.after == .active && change.planAfter == .plus)
    }

    @Test("a renewal the log lacks is recorded as a transaction, keyed by its id as any other")
    func renewal() throws {
        let renewal = facts("101", purchased: "2026-11-10T00:00:00Z", expires: "2026-12-10T00:00:00Z")
        let change = try #require(AppStoreReconciliation.reconcile(logged, apple: apple(1, renewal), orgID: "acme", products: products,
                                                                   now: ts("2026-11-11T00:00:00Z")))
        #expect(change.before == .expired && change.after == .active)
        #expect(change.events.map(\.type) == [AppStoreTransactionRecorded.type])
        #expect(change.events.first?.idempotencyKey == renewal.idempotencyKey)
        #expect(change.events.first?.data["via"] == "reconcile")
    }

    @Test("billing retry, grace period, expiry, refund and revocation: the fact the notification would have recorded, keyed by what Apple said and when",
          arguments: [(3, AppStoreRenewalFailed.type, SubscriptionStatus.inBillingRetry), (4, AppStoreRenewalFailed.type, .inGracePeriod),
                      (2, AppStoreSubscriptionEnded.type, .expired), (5, AppStoreSubscriptionEnded.type, .refunded)])
    func statuses(_ status: Int, _ type: String, _ expected: SubscriptionStatus) throws {
        let t = facts("100", purchased: "2026-10-10T00:00:00Z", expires: "2026-11-10T00:00:00Z")
        let change = try #require(AppStoreReconciliation.reconcile(logged, apple: apple(status, t, grace: "2026-11-20T00:00:00Z"),
                                                                   orgID: "acme", products: products, now: ts("2026-11-05T12:00:00Z")))
        #expect(change.after == expected && change.events.map(\.type) == [type])
        let again = try #require(AppStoreReconciliation.reconcile(logged, apple: apple(status, t, grace: "2026-11-20T00:00:00Z"),
                                                                  orgID: "acme", products: products, now: ts("2026-11-05T12:30:00Z")))
        #expect(again.events.map(\.idempotencyKey) == change.events.map(\.idempotencyKey), "the same answer, the same key: recorded once")
        if status == 4 { #expect(change.events.first?.data["grace_period_expires_date"] != nil) }
        if status == 5 { #expect(change.events.first?.data["reason"] == "REFUND") }
    }

    @Test("a Family Sharing transaction revoked is a revocation, not a refund")
    func familyRevoked() throws {
        let t = facts("100", purchased: "2026-10-10T00:00:00Z", expires: "2026-11-10T00:00:00Z", ownership: "FAMILY_SHARED")
        let change = try #require(AppStoreReconciliation.reconcile(logged, apple: apple(5, t), orgID: "acme", products: products,
                                                                   now: ts("2026-11-05T12:00:00Z")))
        #expect(change.after == .revoked && change.events.first?.data["reason"] == "REVOKE")
    }

    @Test("a product that is not a plan, or a status Apple does not document, changes nothing")
    func outsideTheRules() {
        var t = facts("100", purchased: "2026-10-10T00:00:00Z", expires: "2026-11-10T00:00:00Z")
        #expect(AppStoreReconciliation.reconcile(logged, apple: apple(9, t), orgID: "acme", products: products, now: ts("2026-11-05T12:00:00Z")) == nil)
        t.productID = "coins.100"
        #expect(AppStoreReconciliation.reconcile(logged, apple: apple(1, t), orgID: "acme", products: products, now: ts("2026-11-05T12:00:00Z")) == nil)
    }
}
