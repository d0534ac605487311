import LedgerDomain
import Testing
import TestSupport

/// W3–W11 on generated Stripe histories (`StripeHistory`): the production fold
/// (`WebHoldings.fold`) of a history, of the same history shuffled, and with some events
/// delivered twice, are the same holdings, and what the reference model
/// (`WebReferenceModel`, written from the rules' text alone) says of them; with some events
/// missing, or only those Stripe had sent by an instant, the fold is the model's of what is
/// left. Failures print the case's seed (replay it with LEDGER_TEST_CASE_SEED) and the
/// history.
@Suite("Web subscriptions: generated Stripe histories against a reference model", .bounded)
struct WebSubscriptionModelTests {
    static let cases = 400

    @Test("W4: the same facts in any order, any of them twice, fold to the same holdings, which are the reference model's (W3–W11)")
    func orderDuplicatesAndModel() throws {
        var failures = Failures()
        try Property.check("webSubscriptionModel", count: Self.cases) { rng, seed in
            let events = StripeHistory.generate(&rng)
            let a = WebHoldings.fold(events)
            let b = WebHoldings.fold(events.shuffled(using: &rng))
            let c = WebHoldings.fold(Self.duplicated(events, &rng))
            var problems: [String] = []
            if Self.canonical(a) != Self.canonical(b) { problems.append("shuffled: \(Self.difference(a, b))") }
            if Self.canonical(a) != Self.canonical(c) { problems.append("with duplicates: \(Self.difference(a, c))") }
            problems += Self.differences(a, WebReferenceModel(events), probes: Self.probes(events))
            failures.note(seed, problems, events)
        }
        #expect(failures.none, "\(failures)")
    }

    @Test("W3–W11: with some events missing, the fold is the reference model's of the events left")
    func missingEvents() throws {
        var failures = Failures()
        try Property.check("webSubscriptionMissing", count: Self.cases) { rng, seed in
            let events = StripeHistory.generate(&rng)
            var kept = events.filter { _ in !rng.chance(0.2) }
            if kept.count == events.count, events.count > 1 { kept.remove(at: rng.int(0...(kept.count - 1))) }
            let folded = WebHoldings.fold(kept.shuffled(using: &rng))
            failures.note(seed, Self.differences(folded, WebReferenceModel(kept), probes: Self.probes(kept)), kept)
        }
        #expect(failures.none, "\(failures)")
    }

    @Test("W3–W11: the events Stripe had sent by an instant fold to the reference model's answer then")
    func asOfAnInstant() throws {
        var failures = Failures()
        try Property.check("webSubscriptionAsOf", count: Self.cases) { rng, seed in
            let events = StripeHistory.generate(&rng)
            guard !events.isEmpty else { return }
            var problems: [String] = []
            var known: [StripeEventRecorded] = []
            for _ in 0..<3 {
                let instant = rng.pick(events).created
                known = events.filter { $0.created <= instant }
                problems += Self.differences(WebHoldings.fold(known), WebReferenceModel(known), probes: Self.probes(known))
                    .map { "as of \(instant.iso8601): \($0)" }
                if !problems.isEmpty { break }
            }
            failures.note(seed, problems, known)
        }
        #expect(failures.none, "\(failures)")
    }

    // MARK: - Comparing

    /// What the fold says against what the model says, for every property the rules define.
    static func differences(_ fold: WebHoldings, _ model: WebReferenceModel, probes: [Timestamp]) -> [String] {
        var out: [String] = []
        for (id, m) in model.subscriptions.sorted(by: { $0.key < $1.key }) {
            guard let s = fold.subscriptions.first(where: { $0.subscriptionID == id }) else {
                out.append("\(id): missing from the fold (model: \(m))")
                continue
            }
            var wrong: [String] = []
            func check<T: Equatable>(_ name: String, _ defined: Bool, _ actual: T, _ expected: T) {
                if defined && actual != expected { wrong.append("\(name) \(actual) ≠ model's \(expected)") }
            }
            check("userID", m.userDefined, s.userID, m.userID)
            check("status", m.status != nil, s.status, m.status ?? s.status)
            check("accessEndsAt", m.accessDefined, s.accessEndsAt, m.accessEndsAt)
            check("willRenew", m.willRenew != nil, s.willRenew, m.willRenew ?? s.willRenew)
            check("trialEnd", true, s.trialEnd, m.trialEnd)
            check("upfrontPaid", m.upfrontDefined, s.upfrontPaid, m.upfrontPaid)
            check("hold", m.holdDefined, s.hold, m.hold)
            check("revokedAt", true, s.revokedAt, m.revokedAt)
            check("disputed", true, s.disputed, m.disputed)
            check("paymentFailed", m.paymentFailed != nil, s.paymentFailed, m.paymentFailed ?? s.paymentFailed)
            for probe in probes where s.isHeld(at: probe) != m.held(at: probe) {
                wrong.append("isHeld(at: \(probe.iso8601)) \(s.isHeld(at: probe)) ≠ model's \(m.held(at: probe))")
            }
            if !wrong.isEmpty { out.append("\(id): " + wrong.joined(separator: "; ") + " (model: \(m))") }
        }
        for (id, m) in model.payments.sorted(by: { $0.key < $1.key }) {
            guard let p = fold.payments.first(where: { $0.sessionID == id }) else {
                out.append("\(id): missing from the fold (model: \(m))")
                continue
            }
            var wrong: [String] = []
            if m.userDefined && p.userID != m.userID { wrong.append("userID \(p.userID ?? "nil")") }
            if p.productID != m.productID { wrong.append("productID \(p.productID ?? "nil")") }
            if p.paid != m.paid { wrong.append("paid \(p.paid)") }
            if p.revokedAt != m.revokedAt { wrong.append("revokedAt \(p.revokedAt?.iso8601 ?? "nil")") }
            if p.disputed != m.disputed { wrong.append("disputed \(p.disputed)") }
            for probe in probes where p.isHeld(at: probe) != m.held(at: probe) { wrong.append("isHeld(at: \(probe.iso8601)) \(p.isHeld(at: probe))") }
            if !wrong.isEmpty { out.append("\(id): " + wrong.joined(separator: "; ") + " (model: \(m))") }
        }
        for p in fold.payments where model.payments[p.sessionID] == nil { out.append("\(p.sessionID): a payment the model does not know") }
        return out
    }

    /// Instants no earlier than the last event (what `isHeld(at:)` is asked: now, with every
    /// fact known), around each end the facts name.
    static func probes(_ events: [StripeEventRecorded]) -> [Timestamp] {
        guard let last = events.map(\.created).max() else { return [] }
        var instants: Set<Int64> = [last.microseconds, last.microseconds + 1_000_000,
                                    last.microseconds + 40 * 86_400_000_000, last.microseconds + 400 * 86_400_000_000]
        for e in events {
            guard case .subscription(let s) = e.fact else { continue }
            for end in [s.periodEnd, s.trialEnd, s.endedAt, s.canceledAt].compactMap({ $0 }) {
                instants.formUnion([end.microseconds - 1_000_000, end.microseconds, end.microseconds + 1_000_000])
            }
        }
        return instants.filter { $0 >= last.microseconds }.sorted().compactMap { Timestamp(microseconds: $0) }
    }

    /// The events with some of them again (a redelivery, a reconcile finding one again), in
    /// another order.
    static func duplicated(_ events: [StripeEventRecorded], _ rng: inout SeededRandom) -> [StripeEventRecorded] {
        (events + events.filter { _ in rng.chance(0.3) }).shuffled(using: &rng)
    }

    /// The holdings with their lists in a fixed order (the lists' order is not what W4 is about).
    static func canonical(_ h: WebHoldings) -> WebHoldings {
        WebHoldings(subscriptions: h.subscriptions.sorted { $0.subscriptionID < $1.subscriptionID },
                    payments: h.payments.sorted { $0.sessionID < $1.sessionID })
    }

    static func difference(_ a: WebHoldings, _ b: WebHoldings) -> String {
        let x = canonical(a), y = canonical(b)
        let subs = zip(x.subscriptions, y.subscriptions).filter { $0 != $1 }.map { "\($0)\n  vs \($1)" }
        let payments = zip(x.payments, y.payments).filter { $0 != $1 }.map { "\($0)\n  vs \($1)" }
        return "\(x.subscriptions.count) vs \(y.subscriptions.count) subscriptions, \(x.payments.count) vs \(y.payments.count) payments; "
            + (subs + payments).joined(separator: "\n")
    }

    /// The failing cases of a property: how many differ in each property, and the first
    /// case that differs in each, printed in full.
    struct Failures: CustomStringConvertible {
        private(set) var count = 0
        private var shown: [String] = []
        /// How many cases differ in each property.
        private var properties: [String: Int] = [:]

        var none: Bool { count == 0 }

        mutating func note(_ seed: UInt64, _ problems: [String], _ events: [StripeEventRecorded]) {
            guard !problems.isEmpty else { return }
            count += 1
            let named = Set(problems.flatMap(Self.properties))
            let new = named.subtracting(properties.keys)
            for name in named { properties[name, default: 0] += 1 }
            if !new.isEmpty {
                shown.append("seed \(seed.hex):\n  " + problems.joined(separator: "\n  ") + "\n  history:\n"
                             + events.sorted { ($0.created, $0.eventID) < ($1.created, $1.eventID) }.map { "    " + describe($0) }.joined(separator: "\n"))
            }
        }

        /// The properties a problem names: `sub_1: status … ≠ …; willRenew …` gives status
        /// and willRenew.
        static func properties(_ problem: String) -> [String] {
            if problem.hasPrefix("shuffled") { return ["order"] }
            if problem.hasPrefix("with duplicates") { return ["duplicates"] }
            var text = Substring(problem)
            if text.hasPrefix("as of "), let colon = text.range(of: ": ") { text = text[colon.upperBound...] }
            if let model = text.range(of: " (model: ") { text = text[..<model.lowerBound] }
            if let colon = text.range(of: ": ") { text = text[colon.upperBound...] }
            return text.components(separatedBy: "; ").map { String($0.prefix { $0 != " " && $0 != "(" }) }
        }

        var description: String {
            "\(count) of \(WebSubscriptionModelTests.cases) cases differ ("
                + properties.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "); the first of each:\n"
                + shown.joined(separator: "\n")
        }
    }

    /// One event as a line of the failure's history.
    static func describe(_ e: StripeEventRecorded) -> String {
        func t(_ x: Timestamp?) -> String { x?.iso8601 ?? "-" }
        let fact: String = switch e.fact {
        case .checkout(let c): "\(c.sessionID) \(c.mode) \(c.paymentStatus) cus \(c.customerID ?? "-") sub \(c.subscriptionID ?? "-") pi \(c.paymentIntentID ?? "-") \(c.productID ?? "-")"
        case .subscription(let s):
            "\(s.subscriptionID) \(s.status)\(s.deleted ? " deleted" : "") cus \(s.customerID ?? "-") \(s.productID ?? "-") period_end \(t(s.periodEnd)) trial_end \(t(s.trialEnd))"
                + "\(s.cancelAtPeriodEnd ? " cancel_at_period_end" : "") canceled_at \(t(s.canceledAt)) ended_at \(t(s.endedAt))"
        case .invoice(let i): "\(i.invoiceID) sub \(i.subscriptionID ?? "-") pi \(i.paymentIntentID ?? "-") \(i.paid ? "paid" : "failed") \(i.amountDue) \(i.billingReason ?? "-")"
        case .paymentIntent(let p):
            "\(p.paymentIntentID) \(p.status)\(p.manualCapture ? " manual" : "") sub \(p.subscriptionID ?? "-") cus \(p.customerID ?? "-") \(p.productID ?? "-") \(p.cancellationReason ?? "")"
        case .refund(let r): "\(r.chargeID) pi \(r.paymentIntentID ?? "-") in \(r.invoiceID ?? "-") \(r.amountRefunded)/\(r.amount)\(r.full ? " full" : "")"
        case .dispute(let d): "\(d.disputeID) ch \(d.chargeID ?? "-") pi \(d.paymentIntentID ?? "-") \(d.status)\(d.closed ? " closed" : "")"
        case .seen: ""
        }
        return "\(e.created.iso8601) \(e.eventID) \(e.eventType) user \(e.userID ?? "-") \(fact)"
    }
}
