import LedgerDomain
import Testing

/// A failed renewal (`DID_FAIL_TO_RENEW`), as docs/appstore.md ("Billing retry and grace
/// period") rules it: in a grace period the plan is kept until Apple's grace period ends;
/// in billing retry it lapses at the expiry as any subscription not renewed (O12); a
/// renewal after the failure (`BILLING_RECOVERY`) recovers it; an end ends it (N4).
@Suite("App Store subscriptions: billing retry and grace period", .bounded)
struct BillingIssueTests {
    static func at(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    /// A month's subscription bought on 2026-10-25, expiring on 2026-11-25.
    static let october = SubscriptionFact.Transaction(transactionID: "t1", productID: "p", plan: .plus, purchase: at("2026-10-25T00:00:00Z"),
                                                      expires: at("2026-11-25T00:00:00Z"), revoked: nil, expiredWhenRecorded: false)

    static func subscription(_ facts: [SubscriptionFact.Kind]) -> OrganizationPlans.Subscription {
        let signed = [at("2026-10-25T00:00:00Z"), at("2026-11-25T00:00:00Z"), at("2026-12-05T00:00:00Z"), at("2026-12-20T00:00:00Z")]
        return OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil,
                                              facts: facts.enumerated().map { SubscriptionFact($1, signed: signed[$0], position: Int64($0 + 1)) })
    }

    @Test("in a grace period the plan is kept until the grace period ends, across the month start it would have lapsed at")
    func gracePeriodKeepsThePlan() {
        let s = Self.subscription([.transaction(Self.october), .renewalFailed(graceUntil: Self.at("2026-12-10T00:00:00Z"))])
        #expect(s.status(at: Self.at("2026-11-30T00:00:00Z")) == .inGracePeriod)
        #expect(s.status(at: Self.at("2026-12-10T00:00:00Z")) == .inBillingRetry)
        let timeline = PlanTimeline(s.changes)
        #expect(timeline.plan(at: Self.at("2026-12-15T00:00:00Z")) == .plus, "kept through the grace period's month")
        #expect(timeline.plan(at: Self.at("2027-01-01T00:00:00Z")) == nil, "and gone at the next month start")
    }

    @Test("in billing retry the plan lapses at the expiry, as a subscription not renewed does")
    func billingRetryLapses() {
        let s = Self.subscription([.transaction(Self.october), .renewalFailed(graceUntil: nil)])
        #expect(s.status(at: Self.at("2026-11-30T00:00:00Z")) == .inBillingRetry)
        let timeline = PlanTimeline(s.changes)
        #expect(timeline.plan(at: Self.at("2026-11-30T00:00:00Z")) == .plus)
        #expect(timeline.plan(at: Self.at("2026-12-01T00:00:00Z")) == nil)
    }

    @Test("a renewal after the failure (BILLING_RECOVERY) makes it active again and keeps the plan; the old transaction signed again does not")
    func recovery() {
        var renewal = Self.october
        renewal.transactionID = "t2"
        renewal.purchase = Self.at("2026-12-05T00:00:00Z")
        renewal.expires = Self.at("2027-01-05T00:00:00Z")
        let recovered = Self.subscription([.transaction(Self.october), .renewalFailed(graceUntil: nil), .transaction(renewal)])
        #expect(recovered.status(at: Self.at("2026-12-06T00:00:00Z")) == .active)
        #expect(recovered.billingIssue == nil)
        #expect(PlanTimeline(recovered.changes).plan(at: Self.at("2027-01-01T00:00:00Z")) == .plus)
        let again = Self.subscription([.transaction(Self.october), .renewalFailed(graceUntil: nil), .transaction(Self.october)])
        #expect(again.status(at: Self.at("2026-12-06T00:00:00Z")) == .inBillingRetry)
    }

    @Test("an end after the failure ends it (GRACE_PERIOD_EXPIRED, EXPIRED); a failure after an end changes nothing")
    func endsWin() {
        let ended = Self.subscription([.transaction(Self.october), .renewalFailed(graceUntil: Self.at("2026-12-10T00:00:00Z")), .end(.expired)])
        #expect(ended.status(at: Self.at("2026-12-06T00:00:00Z")) == .expired)
        let late = Self.subscription([.transaction(Self.october), .end(.expired), .renewalFailed(graceUntil: Self.at("2027-02-01T00:00:00Z"))])
        #expect(late.status(at: Self.at("2026-12-21T00:00:00Z")) == .expired)
        #expect(PlanTimeline(late.changes).plan(at: Self.at("2027-01-01T00:00:00Z")) == nil)
    }
}
