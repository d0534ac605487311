import LedgerDomain
import Testing
import TestSupport

/// N3, N4, T5, O12 on generated sequences of Apple's facts about one subscription across
/// month boundaries: purchases and renewals, ends (EXPIRED, REFUND, REVOKE), reversals of
/// a refund (the same transaction signed again), revoked copies, delivered in any order.
@Suite("App Store subscription facts (generated sequences)", .bounded)
struct SubscriptionFactsTests {
    static let day: Int64 = 86_400_000_000
    static let start = Timestamp(iso8601: "2026-10-01T00:00:00Z")!

    /// A sequence over four months, each fact on its own day (Apple signs each at its own
    /// instant), with the plan each transaction stands for.
    static func sequence(_ random: inout SeededRandom) -> [SubscriptionFact] {
        var facts: [SubscriptionFact] = []
        var days = Array(0..<120).shuffled(using: &random).prefix(random.int(1...10)).sorted()
        var transactions: [SubscriptionFact.Transaction] = []
        while !days.isEmpty {
            let signed = Timestamp(microseconds: start.microseconds + Int64(days.removeFirst()) * day + 3_600_000_000)!
            let position = Int64(facts.count + 1)
            switch random.int(0...5) {
            case 0, 1:   // a purchase or renewal, for a year so that no lapse interferes
                let t = SubscriptionFact.Transaction(transactionID: "t\(position)", productID: "p", plan: random.pick([.plus, .premium]),
                                                     purchase: signed, expires: Timestamp(microseconds: signed.microseconds + 365 * day)!,
                                                     revoked: nil, expiredWhenRecorded: false)
                transactions.append(t)
                facts.append(SubscriptionFact(.transaction(t), signed: signed, position: position))
            case 2, 3:
                facts.append(SubscriptionFact(.end, signed: signed, position: position))
            case 4 where !transactions.isEmpty:   // REFUND_REVERSED: the latest transaction signed again
                facts.append(SubscriptionFact(.transaction(transactions.last!), signed: signed, position: position))
            case 5 where !transactions.isEmpty:   // its revoked copy
                var t = transactions.last!
                t.revoked = signed
                facts.append(SubscriptionFact(.transaction(t), signed: signed, position: position))
            default:
                facts.append(SubscriptionFact(.end, signed: signed, position: position))
            }
        }
        return facts
    }

    static func plan(_ facts: [SubscriptionFact], at instant: Timestamp) -> Plan? {
        PlanTimeline(OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: facts).changes).plan(at: instant)
    }

    static let probes = (0..<150).map { Timestamp(microseconds: start.microseconds + Int64($0) * day)! }

    @Test("delivered in any order, the plan over time and the status are the same")
    func orderIndependent() throws {
        var random = SeededRandom(seed: 1616)
        for _ in 0..<400 {
            let facts = Self.sequence(&random)
            var shuffled = facts.shuffled(using: &random)
            for i in shuffled.indices { shuffled[i].position = Int64(100 + i) }   // another delivery order, other positions
            let a = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: facts)
            let b = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: shuffled)
            for probe in Self.probes {
                #expect(PlanTimeline(a.changes).plan(at: probe) == PlanTimeline(b.changes).plan(at: probe), "\(facts) at \(probe.iso8601)")
                #expect(a.status(at: probe) == b.status(at: probe))
            }
        }
    }

    @Test("a fact changes nothing before it was signed: no plan is granted for the past, none taken back for the month")
    func causal() throws {
        var random = SeededRandom(seed: 1617)
        for _ in 0..<400 {
            let facts = Self.sequence(&random)
            for probe in Self.probes {
                let known = facts.filter { $0.signed <= probe }
                #expect(Self.plan(known, at: probe) == Self.plan(facts, at: probe), "\(facts) at \(probe.iso8601)")
            }
        }
    }

    @Test("status and plan agree: active holds the latest transaction's plan or a higher one still granted; ended leaves no plan from the next month start")
    func statusAndPlanAgree() throws {
        var random = SeededRandom(seed: 1618)
        for _ in 0..<400 {
            let facts = Self.sequence(&random)
            let s = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: facts)
            let last = facts.map(\.signed).max()!
            let timeline = PlanTimeline(s.changes)
            // The reference: in signed order, the last fact that counts decides (an older
            // transaction changes nothing; a revoked one ends it).
            var active = false
            var latest: Timestamp?
            for fact in facts.sorted(by: { $0.signed < $1.signed }) {
                switch fact.kind {
                case .end: active = false
                case .transaction(let t):
                    if let latest, t.purchase < latest { continue }
                    latest = t.purchase
                    active = t.revoked == nil
                }
            }
            #expect(s.status(at: last) == (active ? .active : .ended), "\(facts)")
            if active {
                #expect(timeline.plan(at: last) != nil, "active without a plan: \(facts)")
            } else {
                let monthAfter = UTCMonth.nextStart(after: last)!
                #expect(timeline.plan(at: monthAfter) == nil, "ended with a plan after the month: \(facts)")
            }
        }
    }

    @Test("O12: a subscription not renewed is expired after its expiry and lapses at the next month start")
    func lapse() throws {
        let t = SubscriptionFact.Transaction(transactionID: "t1", productID: "p", plan: .plus, purchase: Timestamp(iso8601: "2026-10-20T00:00:00Z")!,
                                             expires: Timestamp(iso8601: "2026-11-05T00:00:00Z")!, revoked: nil, expiredWhenRecorded: false)
        let s = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil,
                                               facts: [SubscriptionFact(.transaction(t), signed: t.purchase, position: 1)])
        #expect(s.status(at: Timestamp(iso8601: "2026-11-04T00:00:00Z")!) == .active)
        #expect(s.status(at: Timestamp(iso8601: "2026-11-05T00:00:00Z")!) == .expired)
        #expect(PlanTimeline(s.changes).plan(at: Timestamp(iso8601: "2026-11-30T23:59:59Z")!) == .plus)
        #expect(PlanTimeline(s.changes).plan(at: Timestamp(iso8601: "2026-12-01T00:00:00Z")!) == nil)
    }
}
