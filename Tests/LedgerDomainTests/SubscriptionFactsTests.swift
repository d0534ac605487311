import LedgerDomain
import Testing
import TestSupport

/// N3, N4, T5, O12 on generated sequences of Apple's facts about one subscription across
/// month boundaries: purchases and renewals (bought outright or shared through Family
/// Sharing, with or without an offer, renewal dates extended), ends (EXPIRED,
/// GRACE_PERIOD_EXPIRED, REFUND, REVOKE), reversals of a refund (the same transaction
/// signed again), revoked copies, failed renewals (billing retry, grace periods), price
/// increases and failed renewal extensions, delivered in any order.
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
            switch random.int(0...8) {
            case 0, 1:   // a purchase or renewal, for a year so that no lapse interferes
                let offer = random.chance(0.5) ? nil
                    : AppStoreOfferAttribution(code: random.int(1...4), identifier: random.pick([nil, "SPRING"]), discountType: nil)
                let t = SubscriptionFact.Transaction(transactionID: "t\(position)", productID: "p", plan: random.pick([.plus, .premium]),
                                                     purchase: signed, expires: Timestamp(microseconds: signed.microseconds + 365 * day)!,
                                                     revoked: nil, expiredWhenRecorded: false,
                                                     ownership: random.pick([nil, .purchased, .familyShared]), offer: offer,
                                                     via: random.pick(["SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED"]))
                transactions.append(t)
                facts.append(SubscriptionFact(.transaction(t), signed: signed, position: position))
            case 2, 3:
                let reason = random.pick(["EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE"])
                facts.append(SubscriptionFact(.end(SubscriptionFact.Ending(reason: reason)), signed: signed, position: position))
            case 4 where !transactions.isEmpty:   // REFUND_REVERSED, or RENEWAL_EXTENDED: the latest transaction signed again
                var t = transactions.last!
                if random.chance(0.5) {
                    t.via = "RENEWAL_EXTENDED"
                    t.expires = Timestamp(microseconds: t.expires!.microseconds + 10 * day)!
                    transactions[transactions.count - 1] = t
                } else {
                    t.via = "REFUND_REVERSED"
                }
                facts.append(SubscriptionFact(.transaction(t), signed: signed, position: position))
            case 5 where !transactions.isEmpty:   // its revoked copy
                var t = transactions.last!
                t.revoked = signed
                t.via = "storekit"
                facts.append(SubscriptionFact(.transaction(t), signed: signed, position: position))
            case 6:   // DID_FAIL_TO_RENEW: billing retry, or a grace period of up to 16 days
                let grace = random.int(0...1) == 0 ? nil : Timestamp(microseconds: signed.microseconds + Int64(random.int(1...16)) * day)!
                facts.append(SubscriptionFact(.renewalFailed(graceUntil: grace), signed: signed, position: position))
            case 7:   // PRICE_INCREASE
                facts.append(SubscriptionFact(.priceIncrease(random.pick([.pending, .accepted])), signed: signed, position: position))
            case 8:   // RENEWAL_EXTENSION, FAILURE
                facts.append(SubscriptionFact(.renewalExtensionFailed, signed: signed, position: position))
            default:
                facts.append(SubscriptionFact(.end(.expired), signed: signed, position: position))
            }
        }
        return facts
    }

    static func plan(_ facts: [SubscriptionFact], at instant: Timestamp) -> Plan? {
        PlanTimeline(OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: facts).changes).plan(at: instant)
    }

    static let probes = (0..<150).map { Timestamp(microseconds: start.microseconds + Int64($0) * day)! }

    @Test("delivered in any order, the plan over time is the reference model's, and the status the same")
    func orderIndependent() throws {
        var random = SeededRandom(seed: 1616)
        for _ in 0..<400 {
            let facts = Self.sequence(&random)
            var shuffled = facts.shuffled(using: &random)
            for i in shuffled.indices { shuffled[i].position = Int64(100 + i) }   // another delivery order, other positions
            let a = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: facts)
            let b = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: shuffled)
            let reference = ReferencePlans(facts, probes: Self.probes)
            let model = ReferenceStatus(facts)
            for probe in Self.probes {
                #expect(PlanTimeline(b.changes).plan(at: probe) == reference.plan[probe]!, "\(facts) at \(probe.iso8601)")
                #expect(a.status(at: probe) == b.status(at: probe))
                #expect(b.status(at: probe).rawValue == model.status(at: probe), "\(facts) at \(probe.iso8601)")
            }
            // What Apple said of it beyond its status: the same whatever the delivery order.
            #expect(b.latest?.ownership == model.ownership && b.latest?.offer == model.offer, "\(facts)")
            #expect(b.priceIncrease?.status.rawValue == model.priceIncrease?.status && b.priceIncrease?.signed == model.priceIncrease?.signed)
            #expect(b.renewalExtension?.outcome.rawValue == model.renewalExtension?.outcome
                    && b.renewalExtension?.signed == model.renewalExtension?.signed, "\(facts)")
        }
    }

    @Test("a fact changes nothing before it was signed: the facts signed so far give the reference model's plan (no plan granted for the past, none taken back for the month)")
    func causal() throws {
        var random = SeededRandom(seed: 1617)
        for _ in 0..<400 {
            let facts = Self.sequence(&random)
            let reference = ReferencePlans(facts, probes: Self.probes)
            for probe in Self.probes {
                let known = facts.filter { $0.signed <= probe }
                #expect(Self.plan(known, at: probe) == reference.plan[probe]!, "\(facts) at \(probe.iso8601)")
            }
        }
    }

    @Test("status and plan agree: a live subscription (active, in grace period or billing retry) holds a plan; an expired, refunded or revoked one has none from the next month start (N4)")
    func statusAndPlanAgree() throws {
        var random = SeededRandom(seed: 1618)
        for _ in 0..<400 {
            let facts = Self.sequence(&random)
            let s = OrganizationPlans.Subscription(originalTransactionID: "o", holder: nil, facts: facts)
            let last = facts.map(\.signed).max()!
            let timeline = PlanTimeline(s.changes)
            let model = ReferenceStatus(facts)
            #expect(s.status(at: last).rawValue == model.status(at: last), "\(facts)")
            if model.live {
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

/// The plan over time of the generated sequences, worked out as T4, N3 and N4 read, by a
/// clock that walks through the facts, the UTC month starts and the probes in time order,
/// with none of `OrganizationPlans` or `PlanTimeline`: a plan at least as high as the one
/// in force applies at once; a lower one, or a removal, waits for the next month start;
/// an older transaction changes nothing; the latest one signed again reinstates an ended
/// subscription; a revoked copy or an end removes the plan. (The generated transactions
/// are bought when signed and expire after the probes, so lapses do not arise.)
struct ReferencePlans {
    /// The plan in force at each probe.
    var plan: [Timestamp: Plan?] = [:]

    static let monthStarts = ["2026-10-01", "2026-11-01", "2026-12-01", "2027-01-01", "2027-02-01", "2027-03-01", "2027-04-01"]
        .map { Timestamp(iso8601: $0 + "T00:00:00Z")! }

    init(_ facts: [SubscriptionFact], probes: [Timestamp]) {
        enum Tick { case monthStart, fact(SubscriptionFact), probe }
        var ticks: [(at: Timestamp, rank: Int, tick: Tick)] = Self.monthStarts.map { ($0, 0, .monthStart) }
        ticks += facts.map { ($0.signed, 1, .fact($0)) }
        ticks += probes.map { ($0, 2, .probe) }
        // Month starts before facts before probes at the same instant; facts by position.
        ticks.sort { a, b in
            if a.at != b.at { return a.at < b.at }
            if a.rank != b.rank { return a.rank < b.rank }
            if case .fact(let x) = a.tick, case .fact(let y) = b.tick { return x.position < y.position }
            return false
        }
        var inForce: Plan?
        var waiting: Plan??             // applies at the next month start; .some(nil) removes the plan
        var granting = false
        var latest: SubscriptionFact.Transaction?
        func grant(_ p: Plan) {
            if p.level >= (inForce?.level ?? -1) { inForce = p; waiting = nil } else { waiting = .some(p) }
        }
        func remove() { if granting { waiting = .some(nil) } }
        for (at, _, tick) in ticks {
            switch tick {
            case .monthStart:
                if let next = waiting { inForce = next; waiting = nil }
            case .probe:
                plan[at] = .some(inForce)
            case .fact(let fact):
                switch fact.kind {
                case .end(_):
                    remove()
                    granting = false
                case .renewalFailed, .priceIncrease, .renewalExtensionFailed:
                    break   // the generated transactions expire after the probes: a grace period changes no plan here
                case .transaction(let t):
                    if let l = latest, t.purchase < l.purchase { continue }
                    let again = latest?.transactionID == t.transactionID
                    latest = t
                    if t.revoked != nil {
                        remove()
                        granting = false
                    } else if !(again && granting) {
                        grant(t.plan)
                        granting = true
                    }
                }
            }
        }
    }
}

/// The status of the generated sequences and what Apple said beyond it, worked out from
/// the facts in signed order with none of `OrganizationPlans`: the last fact that counts
/// decides. An older transaction changes nothing; an end ends it as its notification
/// type says (EXPIRED and GRACE_PERIOD_EXPIRED expired, REFUND refunded, REVOKE revoked);
/// a revoked transaction ends it as refunded, or revoked when it was shared through
/// Family Sharing; a failed renewal of a live subscription puts it in billing retry, or a
/// grace period while that lasts, until a new transaction renews it; the latest
/// transaction signed again recovers nothing but reinstates an ended subscription; price
/// increases and renewal extensions are the latest said; ownership and offer are the
/// latest transaction's.
struct ReferenceStatus {
    enum State: Equatable { case none, active, ended(String), failed(grace: Timestamp?) }
    var state = State.none
    var latestExpires: Timestamp?
    var ownership: AppStoreOwnership?
    var offer: AppStoreOfferAttribution?
    var priceIncrease: (status: String, signed: Timestamp)?
    var renewalExtension: (outcome: String, signed: Timestamp)?

    init(_ facts: [SubscriptionFact]) {
        var latest: SubscriptionFact.Transaction?
        for fact in facts.sorted(by: { $0.signed < $1.signed }) {
            switch fact.kind {
            case .end(let how):
                switch how {
                case .expired: state = .ended("expired")
                case .refunded: state = .ended("refunded")
                case .revoked: state = .ended("revoked")
                }
            case .renewalFailed(let grace):
                if live { state = .failed(grace: grace) }
            case .priceIncrease(let status):
                priceIncrease = (status == .pending ? "pending" : "accepted", fact.signed)
            case .renewalExtensionFailed:
                renewalExtension = ("failed", fact.signed)
            case .transaction(let t):
                if let latest, t.purchase < latest.purchase { continue }
                let again = latest?.transactionID == t.transactionID
                latest = t
                latestExpires = t.expires
                ownership = t.ownership
                offer = t.offer
                if t.via == "RENEWAL_EXTENDED" { renewalExtension = ("extended", fact.signed) }
                if t.revoked != nil {
                    state = .ended(t.ownership == .familyShared ? "revoked" : "refunded")
                } else if !(again && live) {
                    state = .active
                }
            }
        }
    }

    /// Active, in grace period or in billing retry: the plan is held.
    var live: Bool {
        switch state { case .active, .failed: true; default: false }
    }

    func status(at instant: Timestamp) -> String {
        switch state {
        case .none: return "expired"
        case .ended(let how): return how
        case .failed(let grace): return grace.map { instant < $0 } == true ? "in_grace_period" : "in_billing_retry"
        case .active: return latestExpires.map { $0 <= instant } == true ? "expired" : "active"
        }
    }
}
