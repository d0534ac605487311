/// One source's plan over time, from its changes: an upgrade applies at once, a downgrade
/// or a removal at the next start of a UTC month (T4, N4), so that what was granted for
/// the month is never taken back. Pure: the same changes give the same answer whatever
/// order they were delivered in, because they are sorted by their own instants.
public struct PlanTimeline: Sendable, Equatable {
    /// A change of the source's plan at an instant; `plan: nil` removes it.
    public struct Change: Sendable, Equatable {
        public var at: Timestamp
        /// Breaks ties between changes at the same instant (e.g. the log position).
        public var order: Int64
        public var plan: Plan?

        public init(at: Timestamp, order: Int64 = 0, plan: Plan?) {
            self.at = at
            self.order = order
            self.plan = plan
        }
    }

    /// When a plan took or takes effect.
    public struct Segment: Sendable, Equatable {
        public var from: Timestamp
        public var plan: Plan?
        /// The `order` of the change that made it: the log position of its event, for
        /// changes read from the log (what a page links it to).
        public var order: Int64 = 0
    }

    /// The plan in force from each instant on, in order.
    public private(set) var segments: [Segment] = []

    public init(_ changes: [Change]) {
        for change in changes.sorted(by: { ($0.at, $0.order) < ($1.at, $1.order) }) {
            // Compared with the plan in force at the change, not the last one decided: a
            // downgrade decided twice waits for the month start both times.
            let inForce = segments.last { $0.from <= change.at }?.plan
            let newLevel = change.plan?.level ?? -1
            let oldLevel = inForce?.level ?? -1
            let effective: Timestamp
            if newLevel > oldLevel || (newLevel == oldLevel && change.plan != nil) {
                effective = change.at
            } else {
                effective = UTCMonth.nextStart(after: change.at) ?? Timestamp.maximum
            }
            // A later change that applies sooner replaces what was pending after it.
            segments.removeAll { $0.from >= effective }
            segments.append(Segment(from: effective, plan: change.plan, order: change.order))
        }
    }

    /// The plan in force at `instant`.
    public func plan(at instant: Timestamp) -> Plan? {
        segments.last { $0.from <= instant }?.plan
    }

    /// A change decided but not yet in force at `instant`.
    public func pending(at instant: Timestamp) -> Segment? {
        segments.first { $0.from > instant }
    }
}
