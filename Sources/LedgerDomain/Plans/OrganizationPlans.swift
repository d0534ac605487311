/// Which plan an organization holds at an instant, from every source, and what is pending.
/// Pure: built from recorded facts, evaluated at the request's time.
public struct OrganizationPlans: Sendable {
    /// One App Store subscription's recorded changes.
    public struct Subscription: Sendable {
        public var originalTransactionID: String
        /// Who recorded its first transaction through the app (O10's "person whose
        /// subscription holds it"); nil when it only came through notifications.
        public var holder: String?
        public var changes: [PlanTimeline.Change]
        public var latest: Latest?

        /// The subscription's latest transaction, by Apple's dates, and whether it ended.
        public struct Latest: Sendable, Equatable {
            public var productID: String
            public var plan: Plan
            public var transactionID: String
            public var expires: Timestamp?
            public var ended: Bool

            public init(productID: String, plan: Plan, transactionID: String, expires: Timestamp?, ended: Bool) {
                self.productID = productID
                self.plan = plan
                self.transactionID = transactionID
                self.expires = expires
                self.ended = ended
            }
        }

        public init(originalTransactionID: String, holder: String?, changes: [PlanTimeline.Change], latest: Latest?) {
            self.originalTransactionID = originalTransactionID
            self.holder = holder
            self.changes = changes
            self.latest = latest
        }
    }

    public var staff: PlanTimeline
    public var billing: PlanTimeline
    public var subscriptions: [Subscription]

    public init(staff: [PlanTimeline.Change], billing: [PlanTimeline.Change], subscriptions: [Subscription]) {
        self.staff = PlanTimeline(staff)
        self.billing = PlanTimeline(billing)
        self.subscriptions = subscriptions
    }

    /// The plan and its source at `instant`: the highest level, ties to staff, then
    /// billing, then the App Store.
    public func current(at instant: Timestamp) -> (plan: Plan, source: PlanSource?) {
        var best: (Plan, PlanSource?) = (.free, nil)
        for (plan, source) in held(at: instant) where plan.level > best.0.level || (best.1 == nil && plan.level >= best.0.level) {
            best = (plan, source)
        }
        return best
    }

    /// Every plan held at `instant`, with its source, in source order.
    public func held(at instant: Timestamp, excludingSubscription excluded: String? = nil) -> [(Plan, PlanSource)] {
        var out: [(Plan, PlanSource)] = []
        if let p = staff.plan(at: instant) { out.append((p, .staff)) }
        if let p = billing.plan(at: instant) { out.append((p, .billing)) }
        for s in subscriptions where s.originalTransactionID != excluded {
            if let p = PlanTimeline(s.changes).plan(at: instant) { out.append((p, .appStore)) }
        }
        return out
    }

    /// The App Store timeline of one subscription.
    public func timeline(of subscription: Subscription) -> PlanTimeline { PlanTimeline(subscription.changes) }
}
