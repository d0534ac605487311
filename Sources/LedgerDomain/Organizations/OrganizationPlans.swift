/// Which plan an organization holds at an instant, from every source, and what is pending.
/// Pure: built from recorded facts, evaluated at the request's time.
public struct OrganizationPlans: Sendable {
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
        best(held(at: instant))
    }

    private func best(_ held: [(Plan, PlanSource)]) -> (plan: Plan, source: PlanSource?) {
        var best: (Plan, PlanSource?) = (.free, nil)
        for (plan, source) in held where plan.level > best.0.level || (best.1 == nil && plan.level >= best.0.level) {
            best = (plan, source)
        }
        return best
    }

    /// Every plan held at `instant`, with its source, in source order.
    /// `excluded`: subscriptions left out (O10: the reader's own).
    public func held(at instant: Timestamp, excluding excluded: Set<String> = []) -> [(Plan, PlanSource)] {
        held(at: instant, excluding: excluded) { $0.changes }
    }

    private func held(at instant: Timestamp, excluding excluded: Set<String>,
                      changes: (Subscription) -> [PlanTimeline.Change]) -> [(Plan, PlanSource)] {
        var out: [(Plan, PlanSource)] = []
        if let p = staff.plan(at: instant) { out.append((p, .staff)) }
        if let p = billing.plan(at: instant) { out.append((p, .billing)) }
        for s in subscriptions where !excluded.contains(s.originalTransactionID) {
            if let p = PlanTimeline(changes(s)).plan(at: instant) { out.append((p, .appStore)) }
        }
        return out
    }

    /// The next change of the plan in force after `instant`, whatever source makes it (a
    /// downgrade or removal by staff or billing, an App Store downgrade, end, or lapse of
    /// a subscription whose expiry has passed), with the source in force then; nil when
    /// none is pending. A subscription still within its period is expected to renew: its
    /// lapse is not pending.
    public func pendingChange(at instant: Timestamp) -> (plan: Plan, source: PlanSource?, from: Timestamp)? {
        let expected: (Subscription) -> [PlanTimeline.Change] = { s in
            s.lapse.map { $0.at <= instant } == true ? s.changes : s.decided
        }
        let now = best(held(at: instant, excluding: [], changes: expected))
        var boundaries = Set(staff.segments.map(\.from) + billing.segments.map(\.from))
        for s in subscriptions { boundaries.formUnion(PlanTimeline(expected(s)).segments.map(\.from)) }
        for from in boundaries.filter({ $0 > instant }).sorted() {
            let then = best(held(at: from, excluding: [], changes: expected))
            if then.plan != now.plan { return (then.plan, then.source, from) }
        }
        return nil
    }

    /// The App Store timeline of one subscription.
    public func timeline(of subscription: Subscription) -> PlanTimeline { PlanTimeline(subscription.changes) }
}
