import AppStore
import AppStoreServerAPI
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Testing
import TestSupport

/// `ledger appstore reconcile`'s use case: the log's subscriptions against what Apple's
/// stand-in says of them now (docs/appstore.md, "Reconciliation"), recorded as the
/// projector's role records what Apple says.
@Suite("Reconciliation with Apple's subscription statuses records what the missed notification would have", .bounded)
struct ReconciliationTests {
    typealias Harness = NotificationHistorySyncTests.Harness

    /// A subscription to Plus for `org`, its first transaction delivered live.
    func subscribe(_ h: Harness, _ token: UUID, original: String, purchased: String, expires: String) throws {
        let transaction = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                             signedDate: t(purchased), transactionID: original, originalTransactionID: original,
                                             purchaseDate: t(purchased), expiresDate: t(expires))
        let n = signer.notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: transaction, environment: "Sandbox",
                                    signedDate: t(purchased))
        #expect(h.standIn.deliver(notification: n, to: h.notificationURL) == .answered(status: 200))
        h.standIn.add(transaction: transaction)
        try h.f.settle()
    }

    /// What Apple says now of `original`: its latest transaction, its status, the renewal info signed at `said`.
    func apple(_ h: Harness, original: String, status: Int64, said: String, grace: String? = nil, latest: String? = nil) {
        if let latest { h.standIn.add(transaction: latest) }
        var extra: [String: JSONValue] = [:]
        if let grace { extra["gracePeriodExpiresDate"] = .integer(t(grace).microseconds / 1000) }
        h.standIn.setSubscription(originalTransactionID: original,
                                  renewalInfo: signer.renewalInfo(originalTransactionID: original, productID: products[.plus]!,
                                                                  signedDate: t(said), extra: extra),
                                  status: status)
    }

    func reconciler(_ h: Harness) -> (AppStoreReconciler, AppStoreServerAPIClient) {
        let client = h.sync().client
        return (AppStoreReconciler(clients: [client], connections: h.connections, store: h.store, products: AppStoreProducts(products),
                                   actor: Actor(.system, "reconcile-test"), now: h.f.service.clock.read), client)
    }

    @Test("a renewal Apple has and the log lacks: a dry run says so and appends nothing, the run records it, a second run agrees")
    func missedRenewal() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        try subscribe(h, acme, original: "7001", purchased: "2026-10-09T00:00:00Z", expires: "2026-11-09T00:00:00Z")
        let renewal = signer.transaction(productID: products[.plus]!, appAccountToken: acme, environment: "Sandbox",
                                         signedDate: t("2026-11-09T00:00:05Z"), transactionID: "7002", originalTransactionID: "7001",
                                         purchaseDate: t("2026-11-09T00:00:00Z"), expiresDate: t("2026-12-09T00:00:00Z"))
        apple(h, original: "7001", status: 1, said: "2026-11-10T11:00:00Z", latest: renewal)
        let (reconciler, client) = reconciler(h)
        defer { client.close() }

        let head = try h.head()
        let dry = try reconciler.run(orgID: nil, bundleID: nil, since: nil, dryRun: true)
        #expect(dry.map(\.outcome) == ["would_record"] && dry.first?.events == [AppStoreTransactionRecorded.type])
        #expect(dry.first?.before == .expired && dry.first?.after == .active && dry.first?.planBefore == nil && dry.first?.planAfter == .plus)
        #expect(try h.head() == head, "a dry run appends nothing")

        #expect(try reconciler.run(orgID: "acme", bundleID: nil, since: nil, dryRun: false).map(\.outcome) == ["recorded"])
        #expect(try h.f.currentPlan("acme")?["current"] == "plus")
        try h.f.settle()
        let after = try h.head()
        #expect(try reconciler.run(orgID: "acme", bundleID: nil, since: nil, dryRun: false).map(\.outcome) == ["agrees"])
        #expect(try h.head() == after, "a second run appends nothing")
    }

    @Test("Apple's grace period, then its refund: each recorded as DID_FAIL_TO_RENEW and REFUND would have, once", arguments: [false, true])
    func gracePeriodThenRefund(_ familyShared: Bool) throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        try subscribe(h, acme, original: "8001", purchased: "2026-10-11T00:00:00Z", expires: "2026-11-11T00:00:00Z")
        #expect(try h.f.currentPlan("acme")?["current"] == "plus")
        let (reconciler, client) = reconciler(h)
        defer { client.close() }

        apple(h, original: "8001", status: 4, said: "2026-11-10T11:00:00Z", grace: "2026-11-27T00:00:00Z")
        try h.f.settle()
        let grace = try reconciler.run(orgID: "acme", bundleID: nil, since: nil, dryRun: false)
        #expect(grace.map(\.outcome) == ["recorded"] && grace.first?.events == [AppStoreRenewalFailed.type])
        #expect(grace.first?.before == .active && grace.first?.after == .inGracePeriod)

        let revoked = signer.transaction(productID: products[.plus]!, appAccountToken: acme, environment: "Sandbox",
                                         signedDate: t("2026-11-10T11:30:00Z"), transactionID: "8001", originalTransactionID: "8001",
                                         purchaseDate: t("2026-10-11T00:00:00Z"), expiresDate: t("2026-11-11T00:00:00Z"),
                                         revocationDate: t("2026-11-10T11:30:00Z"),
                                         extra: ["inAppOwnershipType": .string(familyShared ? "FAMILY_SHARED" : "PURCHASED")])
        apple(h, original: "8001", status: 5, said: "2026-11-10T11:45:00Z", latest: revoked)
        let refund = try reconciler.run(orgID: "acme", bundleID: nil, since: nil, dryRun: false)
        #expect(refund.map(\.outcome) == ["recorded"] && refund.first?.events == [AppStoreSubscriptionEnded.type])
        #expect(refund.first?.after == (familyShared ? .revoked : .refunded) && refund.first?.planAfter == nil)
        try h.f.settle()
        let head = try h.head()
        #expect(try reconciler.run(orgID: "acme", bundleID: nil, since: nil, dryRun: false).map(\.outcome) == ["agrees"])
        #expect(try h.head() == head)
    }

    @Test("a subscription whose latest transaction expired before --since is not asked")
    func sinceBoundsTheQuestions() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        try subscribe(h, acme, original: "9001", purchased: "2026-09-01T00:00:00Z", expires: "2026-10-01T00:00:00Z")
        apple(h, original: "9001", status: 2, said: "2026-11-10T11:00:00Z")
        let (reconciler, client) = reconciler(h)
        defer { client.close() }
        #expect(try reconciler.run(orgID: nil, bundleID: nil, since: t("2026-10-15T00:00:00Z"), dryRun: true).isEmpty)
        let all = try reconciler.run(orgID: nil, bundleID: nil, since: nil, dryRun: true)
        #expect(all.map(\.outcome) == ["agrees"], "\(all)")
    }
}
