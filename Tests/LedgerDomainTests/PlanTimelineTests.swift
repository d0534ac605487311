import LedgerDomain
import Testing
import TestSupport

@Suite("Plan timelines (T4, N4)", .bounded)
struct PlanTimelineTests {
    func t(_ s: String) -> Timestamp { Timestamp(iso8601: s)! }

    @Test("T4: an upgrade applies at once; a downgrade at the next start of a UTC month")
    func upgradeAndDowngrade() {
        let timeline = PlanTimeline([
            .init(at: t("2026-11-10T00:00:00Z"), plan: .plus),
            .init(at: t("2026-11-12T00:00:00Z"), plan: .premium),
            .init(at: t("2026-11-20T00:00:00Z"), plan: .plus),
        ])
        #expect(timeline.plan(at: t("2026-11-11T00:00:00Z")) == .plus)
        #expect(timeline.plan(at: t("2026-11-12T00:00:00Z")) == .premium)
        #expect(timeline.plan(at: t("2026-11-30T23:59:59Z")) == .premium, "what was granted for the month stays")
        #expect(timeline.plan(at: t("2026-12-01T00:00:00Z")) == .plus)
        #expect(timeline.pending(at: t("2026-11-25T00:00:00Z"))?.plan == .plus)
    }

    @Test("N4: a removal takes effect at the next month start; a resubscription before it cancels it")
    func removal() {
        var timeline = PlanTimeline([.init(at: t("2026-11-10T00:00:00Z"), plan: .premium), .init(at: t("2026-11-15T00:00:00Z"), plan: nil)])
        #expect(timeline.plan(at: t("2026-11-30T00:00:00Z")) == .premium)
        #expect(timeline.plan(at: t("2026-12-01T00:00:00Z")) == nil)
        timeline = PlanTimeline([.init(at: t("2026-11-10T00:00:00Z"), plan: .premium), .init(at: t("2026-11-15T00:00:00Z"), plan: nil),
                                 .init(at: t("2026-11-20T00:00:00Z"), plan: .premium)])
        #expect(timeline.plan(at: t("2026-12-05T00:00:00Z")) == .premium)
    }

    @Test("the plan at any instant does not depend on the order the changes were delivered in (generated)")
    func orderIndependent() {
        var random = SeededRandom(seed: 12)
        for _ in 0..<2_000 {
            var changes: [PlanTimeline.Change] = []
            for i in 0..<random.int(1...8) {
                let day = random.int(0...89)
                let at = Timestamp(microseconds: t("2026-10-01T00:00:00Z").microseconds + Int64(day) * 86_400_000_000)!
                changes.append(.init(at: at, order: Int64(i), plan: random.chance(0.2) ? nil : random.pick(Plan.allCases)))
            }
            let reference = PlanTimeline(changes)
            var shuffled = changes
            shuffled.shuffle(using: &random)
            let other = PlanTimeline(shuffled)
            #expect(other == reference)
            // And the reference model: replay the sorted changes the slow way, day by day.
            for day in stride(from: 0, through: 120, by: 3) {
                let at = Timestamp(microseconds: t("2026-10-01T00:00:00Z").microseconds + Int64(day) * 86_400_000_000 + 1)!
                #expect(reference.plan(at: at) == slowPlan(changes, at: at))
            }
        }
    }

    /// The rule, evaluated directly: walk the changes in time order; a change that is not
    /// an upgrade of the plan in force when it is made waits for the next month start, and
    /// is cancelled by any later change that takes effect before it does.
    func slowPlan(_ changes: [PlanTimeline.Change], at instant: Timestamp) -> Plan? {
        var pending: [(from: Timestamp, plan: Plan?)] = []
        for c in changes.sorted(by: { ($0.at, $0.order) < ($1.at, $1.order) }) {
            let inForce = pending.last { $0.from <= c.at }?.plan
            let up = (c.plan?.level ?? -1) > (inForce?.level ?? -1) || ((c.plan?.level ?? -1) == (inForce?.level ?? -1) && c.plan != nil)
            let from = up ? c.at : UTCMonth.nextStart(after: c.at)!
            pending.removeAll { $0.from >= from }
            pending.append((from, c.plan))
        }
        return pending.last { $0.from <= instant }?.plan
    }

    @Test("T4: a downgrade decided twice in a month still waits for the month start (compared with the plan in force, not the last decided)")
    func downgradeTwice() {
        let timeline = PlanTimeline([
            .init(at: t("2026-11-10T00:00:00Z"), plan: .premium),
            .init(at: t("2026-11-20T00:00:00Z"), plan: .plus),
            .init(at: t("2026-11-25T00:00:00Z"), plan: .plus),
        ])
        #expect(timeline.plan(at: t("2026-11-26T00:00:00Z")) == .premium)
        #expect(timeline.plan(at: t("2026-12-01T00:00:00Z")) == .plus)
    }

    @Test("levels: free 0 < plus 1 < education 2 = premium 2")
    func levels() {
        #expect(Plan.free.level == 0 && Plan.plus.level == 1 && Plan.education.level == 2 && Plan.premium.level == 2)
    }

    @Test("O7: school domains match a suffix or a subdomain of one, case-insensitively")
    func schoolDomains() {
        let d = SchoolDomains.defaults
        #expect(d.match(email: "t@lincoln.k12.ne.us") == "k12.ne.us")
        #expect(d.match(email: "T@SPRINGFIELD.K12.IL.US") == "k12.il.us")
        #expect(d.match(email: "x@school.sch.uk") == "sch.uk")
        #expect(d.match(email: "x@k12.ca.us.evil.com") == nil)
        #expect(d.match(email: "x@notk12.ca.us") == nil)
        #expect(d.match(email: "no-at-sign") == nil)
        #expect(SchoolDomains(suffixes: [".edu.example"]).match(email: "a@b.edu.example") == "edu.example")
    }
}
