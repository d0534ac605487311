import LedgerDomain
import Testing

/// The status of an App Store subscription as docs/appstore.md ("Lifecycle") rules it,
/// one test per rule, on one subscription's facts with no database: Apple's word on how
/// it ended (expired, refunded, revoked) is its status, while N4's effect on the plan (gone
/// at the next start of a UTC month, nothing taken back) is the same for every end.
@Suite("App Store subscriptions: lifecycle", .bounded)
struct SubscriptionLifecycleTests {
    static func at(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    /// Plus bought on 2026-11-02, for a year.
    static let bought = SubscriptionFact.Transaction(transactionID: "t1", productID: "p", plan: .plus, purchase: at("2026-11-02T00:00:00Z"),
                                                     expires: at("2027-11-02T00:00:00Z"), revoked: nil, expiredWhenRecorded: false,
                                                     ownership: .purchased)

    /// Facts signed on 2026-11-02, -11-10, -11-20, -12-05, -12-20, in that order.
    static func subscription(_ facts: [SubscriptionFact.Kind]) -> OrganizationPlans.Subscription {
        let signed = ["2026-11-02", "2026-11-10", "2026-11-20", "2026-12-05", "2026-12-20"].map { at($0 + "T00:00:00Z") }
        return OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil,
                                              facts: facts.enumerated().map { SubscriptionFact($1, signed: signed[$0], position: Int64($0 + 1)) })
    }

    /// N4: whatever the end, the plan stays to the month's end and goes at the next month start.
    static func planGoesAtTheMonthStart(_ s: OrganizationPlans.Subscription) {
        let timeline = PlanTimeline(s.changes)
        #expect(timeline.plan(at: at("2026-11-30T23:59:59Z")) == .plus)
        #expect(timeline.plan(at: at("2026-12-01T00:00:00Z")) == nil)
    }

    @Test("expired: EXPIRED and GRACE_PERIOD_EXPIRED end it as expired; N4 unchanged")
    func expired() {
        for end in [SubscriptionFact.Kind.end(SubscriptionFact.Ending(reason: "EXPIRED")), .end(SubscriptionFact.Ending(reason: "GRACE_PERIOD_EXPIRED"))] {
            let s = Self.subscription([.transaction(Self.bought), end])
            #expect(s.status(at: Self.at("2026-11-15T00:00:00Z")) == .expired)
            Self.planGoesAtTheMonthStart(s)
        }
    }

    @Test("gracePeriodExpired: a grace period that ends (GRACE_PERIOD_EXPIRED) ends the billing issue as expired, the plan going at the month start")
    func gracePeriodExpired() {
        let s = Self.subscription([.transaction(Self.bought), .renewalFailed(graceUntil: Self.at("2026-11-18T00:00:00Z")),
                                   .end(SubscriptionFact.Ending(reason: "GRACE_PERIOD_EXPIRED"))])
        #expect(s.status(at: Self.at("2026-11-25T00:00:00Z")) == .expired)
        #expect(s.billingIssue == nil)
        Self.planGoesAtTheMonthStart(s)
    }

    @Test("refunded: REFUND, or a revoked transaction its buyer held, ends it as refunded; N4 unchanged")
    func refunded() {
        let byNotification = Self.subscription([.transaction(Self.bought), .end(SubscriptionFact.Ending(reason: "REFUND"))])
        #expect(byNotification.status(at: Self.at("2026-11-15T00:00:00Z")) == .refunded)
        Self.planGoesAtTheMonthStart(byNotification)
        var copy = Self.bought
        copy.revoked = Self.at("2026-11-10T00:00:00Z")
        let byTransaction = Self.subscription([.transaction(Self.bought), .transaction(copy)])
        #expect(byTransaction.status(at: Self.at("2026-11-15T00:00:00Z")) == .refunded)
        Self.planGoesAtTheMonthStart(byTransaction)
    }

    @Test("revoked: REVOKE, or a revoked Family Sharing transaction, ends it as revoked; N4 unchanged")
    func revoked() {
        let byNotification = Self.subscription([.transaction(Self.bought), .end(SubscriptionFact.Ending(reason: "REVOKE"))])
        #expect(byNotification.status(at: Self.at("2026-11-15T00:00:00Z")) == .revoked)
        Self.planGoesAtTheMonthStart(byNotification)
        var shared = Self.bought
        shared.ownership = .familyShared
        var copy = shared
        copy.revoked = Self.at("2026-11-10T00:00:00Z")
        let byTransaction = Self.subscription([.transaction(shared), .transaction(copy)])
        #expect(byTransaction.status(at: Self.at("2026-11-15T00:00:00Z")) == .revoked)
        Self.planGoesAtTheMonthStart(byTransaction)
    }

    @Test("refundReversed: REFUND_REVERSED (the transaction signed again) brings a refunded subscription back to active, from the reversal")
    func refundReversed() {
        let s = Self.subscription([.transaction(Self.bought), .end(SubscriptionFact.Ending(reason: "REFUND")), .transaction(Self.bought)])
        #expect(s.status(at: Self.at("2026-11-25T00:00:00Z")) == .active)
        #expect(s.ending == nil)
        #expect(PlanTimeline(s.changes).plan(at: Self.at("2026-12-01T00:00:00Z")) == .plus)
    }

    @Test("billingRecovery: DID_RENEW BILLING_RECOVERY (a new transaction after the failure) ends the billing issue: active")
    func billingRecovery() {
        var renewal = Self.bought
        renewal.transactionID = "t2"
        renewal.purchase = Self.at("2026-11-20T00:00:00Z")
        renewal.via = "DID_RENEW"
        let s = Self.subscription([.transaction(Self.bought), .renewalFailed(graceUntil: nil), .transaction(renewal)])
        #expect(s.status(at: Self.at("2026-11-25T00:00:00Z")) == .active)
        #expect(s.billingIssue == nil)
    }

    @Test("familySharing: the latest transaction says who holds the plan; a shared one grants it as a purchase does")
    func familySharing() {
        var shared = Self.bought
        shared.ownership = .familyShared
        let s = Self.subscription([.transaction(shared)])
        #expect(s.latest?.ownership == .familyShared && s.status(at: Self.at("2026-11-15T00:00:00Z")) == .active)
        #expect(PlanTimeline(s.changes).plan(at: Self.at("2026-11-15T00:00:00Z")) == .plus)
        #expect(s.notes.contains("held through Family Sharing"))
        #expect(Self.subscription([.transaction(Self.bought)]).notes.contains("held by its buyer"))
    }

    @Test("offerAttribution: the offer of the latest transaction is shown; Apple's codes 1–4 named, another kept as its code")
    func offerAttribution() {
        var intro = Self.bought
        intro.offer = AppStoreOfferAttribution(code: 1, identifier: nil, discountType: "FREE_TRIAL")
        var winBack = Self.bought
        winBack.transactionID = "t2"
        winBack.purchase = Self.at("2026-12-05T00:00:00Z")
        winBack.offer = AppStoreOfferAttribution(code: 4, identifier: "COMEBACK", discountType: "PAY_AS_YOU_GO")
        #expect(Self.subscription([.transaction(intro)]).latest?.offer?.kind == .introductory)
        let s = Self.subscription([.transaction(intro), .transaction(winBack)])
        #expect(s.latest?.offer?.kind == .winBack && s.latest?.offer?.identifier == "COMEBACK")
        #expect(s.notes.contains("offer: win_back (COMEBACK, PAY_AS_YOU_GO)"))
        #expect(AppStoreOfferAttribution(code: 3, identifier: "SPRING", discountType: nil).kind == .offerCode)
        #expect(AppStoreOfferAttribution(code: 2, identifier: "P", discountType: nil).kind == .promotional)
        #expect(AppStoreOfferAttribution(code: 9, identifier: nil, discountType: nil).summary == "offer type 9")
    }

    @Test("priceIncrease: the latest PRICE_INCREASE by signedDate is shown; it changes neither status nor plan")
    func priceIncrease() {
        let s = Self.subscription([.transaction(Self.bought), .priceIncrease(.pending), .priceIncrease(.accepted)])
        #expect(s.priceIncrease == .init(status: .accepted, signed: Self.at("2026-11-20T00:00:00Z")))
        #expect(s.status(at: Self.at("2026-11-25T00:00:00Z")) == .active)
        #expect(s.changes == Self.subscription([.transaction(Self.bought)]).changes)
        #expect(PriceIncreaseStatus(subtype: "PENDING", renewalInfoStatus: 1) == .pending, "the subtype names the notification")
        #expect(PriceIncreaseStatus(subtype: nil, renewalInfoStatus: 1) == .accepted)
        #expect(PriceIncreaseStatus(subtype: "OTHER", renewalInfoStatus: nil) == nil)
    }

    @Test("renewalExtension: RENEWAL_EXTENDED moves the expiry and says so; a later FAILURE says it failed and keeps the expiry")
    func renewalExtension() {
        var extended = Self.bought
        extended.expires = Self.at("2027-11-20T00:00:00Z")
        extended.via = "RENEWAL_EXTENDED"
        let s = Self.subscription([.transaction(Self.bought), .transaction(extended)])
        #expect(s.renewalExtension == .init(outcome: .extended, signed: Self.at("2026-11-10T00:00:00Z")))
        #expect(s.latest?.expires == Self.at("2027-11-20T00:00:00Z"))
        let failed = Self.subscription([.transaction(Self.bought), .transaction(extended), .renewalExtensionFailed])
        #expect(failed.renewalExtension?.outcome == .failed && failed.latest?.expires == Self.at("2027-11-20T00:00:00Z"))
        #expect(failed.status(at: Self.at("2026-11-25T00:00:00Z")) == .active)
    }
}
