import LedgerDomain

/// An organization's plans over time, one lane per source (staff, billing, the App Store:
/// its subscriptions together) and one for the plan in force, as `OrganizationPlans`
/// judges them (a downgrade at the month's end, a lapse at an expiry): the console's plan
/// timeline. Each band names the log position of the change that began it, when a change
/// read from the log did (a lapse is no event).
public struct PlanLanes: Sendable {
    /// A plan held from `from` until the next band of its lane.
    public struct Band: Sendable, Equatable {
        public var from: Timestamp
        /// The next band's start; nil for the last.
        public var until: Timestamp?
        /// nil: the source grants no plan (removed, ended, lapsed).
        public var plan: Plan?
        /// In the lane of the plan in force, the source it comes from (nil: the default plan).
        public var source: PlanSource?
        /// The event that began it.
        public var position: Int64?

        public init(from: Timestamp, until: Timestamp? = nil, plan: Plan?, source: PlanSource?, position: Int64?) {
            self.from = from
            self.until = until
            self.plan = plan
            self.source = source
            self.position = position
        }
    }

    /// One source's plans, or (`source` nil) the plan in force.
    public struct Lane: Sendable, Equatable {
        public var source: PlanSource?
        public var bands: [Band]
    }

    /// Staff, billing, the App Store, then the plan in force.
    public var lanes: [Lane]

    /// The lanes of `plans`; the lane of the plan in force starts at `start` (the
    /// organization's creation) with the default plan, or earlier with the first change.
    public init(_ plans: OrganizationPlans, start: Timestamp) {
        func position(_ order: Int64) -> Int64? { order > 0 && order < .max ? order : nil }
        func lane(_ source: PlanSource, _ segments: [PlanTimeline.Segment]) -> Lane {
            Lane(source: source, bands: Self.closed(segments.filter { $0.from < .maximum }.map {
                Band(from: $0.from, plan: $0.plan, source: source, position: position($0.order))
            }))
        }
        // The App Store lane: at each change of any subscription, the highest plan any of them grants.
        let timelines = plans.subscriptions.map(plans.timeline(of:))
        var appStore: [Band] = []
        for at in Set(timelines.flatMap { $0.segments.map(\.from) }).filter({ $0 < .maximum }).sorted() {
            // The highest level, the first subscription's on a tie, as `OrganizationPlans.current` picks.
            let plan = timelines.compactMap { $0.plan(at: at) }.reduce(nil as Plan?) { best, p in
                best.map { p.level > $0.level ? p : $0 } ?? p
            }
            guard appStore.isEmpty || appStore.last?.plan != plan else { continue }
            let order = timelines.lazy.flatMap(\.segments).first { $0.from == at && position($0.order) != nil }?.order
            appStore.append(Band(from: at, plan: plan, source: .appStore, position: order.flatMap(position)))
        }
        var lanes = [lane(.staff, plans.staff.segments), lane(.billing, plans.billing.segments),
                     Lane(source: .appStore, bands: Self.closed(appStore))]
        // The plan in force: judged at each instant a source's plan changes, as the API judges it.
        var inForce: [Band] = []
        let changes = lanes.flatMap(\.bands)
        for at in Set(changes.map(\.from) + [start]).sorted() {
            let (plan, source) = plans.current(at: at)
            guard inForce.last.map({ $0.plan != plan || $0.source != source }) ?? true else { continue }
            let cause = changes.first { $0.from == at && $0.source == source && $0.position != nil }
                ?? changes.first { $0.from == at && $0.position != nil }
            inForce.append(Band(from: at, plan: plan, source: source, position: cause?.position))
        }
        lanes.append(Lane(source: nil, bands: Self.closed(inForce)))
        self.lanes = lanes
    }

    /// Every instant a band of any lane begins.
    public var changes: [Timestamp] { Set(lanes.flatMap { $0.bands.map(\.from) }).sorted() }

    /// Each band ends where the next begins.
    static func closed(_ bands: [Band]) -> [Band] {
        var out = bands
        for i in out.indices.dropLast() { out[i].until = out[i + 1].from }
        return out
    }
}
