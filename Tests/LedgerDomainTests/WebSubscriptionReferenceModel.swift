import LedgerDomain

/// What a set of Stripe's facts grants, worked out from the text of W3–W11 (docs/catalog.md,
/// "Web subscriptions") alone, with none of `WebHoldings`: the vocabulary (`StripeFact`,
/// `WebSubscription.Status`, `.Hold`) is shared, the reasoning is not.
///
/// Where the rules leave a property open the model says so (nil, or `…Defined` false) and
/// the tests do not compare it: `accessEndsAt` of a subscription that is unpaid, paused,
/// incomplete or revoked; `willRenew` of one unpaid, paused or incomplete; the status when a
/// refund and a lost dispute took access away in the same second, or of one revoked that
/// never started; the upfront charge of a
/// trial whose charge was refunded; `willRenew` of one revoked; `paymentFailed` (W8 shows
/// it while Stripe retries) of one that is not running, or after a failed first payment;
/// the user of facts that reach two users.
struct WebReferenceModel {
    struct Subscription: CustomStringConvertible {
        var id: String
        var userID: String?
        /// False when its facts reach more than one user.
        var userDefined = true
        var status: WebSubscription.Status?
        /// The status before a refund or a lost dispute took access away.
        var underlying: WebSubscription.Status
        var accessEndsAt: Timestamp?
        var accessDefined: Bool
        var willRenew: Bool?
        var trialEnd: Timestamp?
        var upfrontPaid: Int64?
        var upfrontDefined = true
        var hold: WebSubscription.Hold?
        var holdDefined = true
        var revokedAt: Timestamp?
        var disputed: Bool
        var paymentFailed: Bool?

        /// W5, W8, W9, W10, W11: held at `instant`, for an instant no earlier than the facts.
        func held(at instant: Timestamp) -> Bool {
            if let revokedAt, instant >= revokedAt { return false }
            switch underlying {
            case .trialing, .active, .pastDue: return accessEndsAt.map { instant < $0 } ?? false
            default: return false
            }
        }

        var description: String {
            "\(id) user \(userID ?? "-") \(status?.rawValue ?? "?") ends \(accessEndsAt?.iso8601 ?? "-") renews \(willRenew.map(String.init) ?? "?")"
                + " trial \(trialEnd?.iso8601 ?? "-") upfront \(upfrontPaid.map(String.init) ?? "-") hold \(hold?.rawValue ?? "-")"
                + " revoked \(revokedAt?.iso8601 ?? "-") disputed \(disputed) failed \(paymentFailed.map(String.init) ?? "?")"
        }
    }

    struct Payment: CustomStringConvertible {
        var sessionID: String
        var userID: String?
        var userDefined = true
        var productID: String?
        var paid: Bool
        var revokedAt: Timestamp?
        var disputed: Bool

        func held(at instant: Timestamp) -> Bool { paid && (revokedAt.map { instant < $0 } ?? true) }

        var description: String {
            "\(sessionID) user \(userID ?? "-") \(productID ?? "-") paid \(paid) revoked \(revokedAt?.iso8601 ?? "-") disputed \(disputed)"
        }
    }

    /// Every subscription that has at least one subscription fact, by id: the rules define
    /// a subscription's state from those (W4); one known only from its checkout or its
    /// invoices has none the rules speak of.
    var subscriptions: [String: Subscription] = [:]
    var payments: [String: Payment] = [:]

    init(_ recorded: [StripeEventRecorded]) {
        // W2, W4: an event is the same event however often it arrives.
        var byID: [String: StripeEventRecorded] = [:]
        for e in recorded where byID[e.eventID] == nil { byID[e.eventID] = e }
        let events = Array(byID.values)
        let users = Users(events)

        var subscriptionFacts: [String: [(StripeEventRecorded, StripeFact.Subscription)]] = [:]
        var invoices: [(StripeEventRecorded, StripeFact.Invoice)] = []
        var intents: [(StripeEventRecorded, StripeFact.PaymentIntent)] = []
        var refunds: [(StripeEventRecorded, StripeFact.Refund)] = []
        var disputes: [(StripeEventRecorded, StripeFact.Dispute)] = []
        var checkouts: [(StripeEventRecorded, StripeFact.Checkout)] = []
        for e in events {
            switch e.fact {
            case .subscription(let s): subscriptionFacts[s.subscriptionID, default: []].append((e, s))
            case .invoice(let i): invoices.append((e, i))
            case .paymentIntent(let p): intents.append((e, p))
            case .refund(let r): refunds.append((e, r))
            case .dispute(let d): disputes.append((e, d))
            case .checkout(let c): checkouts.append((e, c))
            case .seen: break
            }
        }

        /// W10, W11: what took away access to what these charges paid for, and whether one of
        /// them is disputed now.
        func revocations(invoiceIDs: Set<String>, intentIDs: Set<String>)
            -> (at: Timestamp?, kind: WebSubscription.Status??, disputed: Bool, refundedInvoices: Set<String>) {
            let ours = refunds.filter { r in
                r.1.invoiceID.map(invoiceIDs.contains) == true || r.1.paymentIntentID.map(intentIDs.contains) == true
            }
            let charges = Set(ours.map(\.1.chargeID))
            var ends: [(Timestamp, WebSubscription.Status)] = ours.filter { $0.1.full }.map { ($0.0.created, .refunded) }
            let disputed = disputes.filter { d in
                d.1.paymentIntentID.map(intentIDs.contains) == true || d.1.chargeID.map(charges.contains) == true
            }
            ends += disputed.filter { $0.1.closed && $0.1.status == "lost" }.map { ($0.0.created, .disputeLost) }
            let open = Set(disputed.filter { !$0.1.closed }.map(\.1.disputeID))
                .subtracting(disputed.filter { $0.1.closed }.map(\.1.disputeID))
            let refunded = Set(ours.compactMap(\.1.invoiceID))
                .union(invoices.filter { i in i.1.paymentIntentID.map { p in ours.contains { $0.1.paymentIntentID == p } } == true }.map(\.1.invoiceID))
            guard let first = ends.map(\.0).min() else { return (nil, .some(nil), !open.isEmpty, refunded) }
            let kinds = Set(ends.filter { $0.0 == first }.map(\.1))
            return (first, kinds.count == 1 ? .some(kinds.first!) : nil, !open.isEmpty, refunded)
        }

        for (id, facts) in subscriptionFacts {
            // W4: the latest by the event's time; a tie to the later stage, then the greater id.
            let (latestEvent, latest) = facts.max { a, b in
                (a.0.created, Self.stage(a.1), a.0.eventID) < (b.0.created, Self.stage(b.1), b.0.eventID)
            }!
            var s = Subscription(id: id, underlying: .incomplete, accessEndsAt: nil, accessDefined: false, trialEnd: latest.trialEnd,
                                 disputed: false)
            (s.userID, s.userDefined) = users.user(of: id)

            // W5, W8, W9.
            if latest.deleted || latest.status == "canceled" {
                s.underlying = .ended
                s.accessEndsAt = latest.endedAt ?? latest.canceledAt ?? latestEvent.created
                s.accessDefined = true
                s.willRenew = false
            } else {
                switch latest.status {
                case "trialing":
                    s.underlying = .trialing
                    s.accessEndsAt = latest.trialEnd ?? latest.periodEnd
                case "active":
                    s.underlying = .active
                    s.accessEndsAt = latest.periodEnd
                case "past_due":
                    s.underlying = .pastDue
                    s.accessEndsAt = latest.periodEnd
                case "unpaid": s.underlying = .unpaid
                case "paused": s.underlying = .paused
                default: s.underlying = .incomplete   // incomplete, incomplete_expired: it never started
                }
                if [.trialing, .active, .pastDue].contains(s.underlying) {
                    s.accessDefined = true
                    s.willRenew = !latest.cancelAtPeriodEnd
                }
            }
            s.status = s.underlying

            let mine = invoices.filter { $0.1.subscriptionID == id }
            let intentIDs = Set(mine.compactMap(\.1.paymentIntentID))
            let taken = revocations(invoiceIDs: Set(mine.map(\.1.invoiceID)), intentIDs: intentIDs)
            s.disputed = taken.disputed
            if let at = taken.at {
                s.revokedAt = at
                // What never started (W12) has nothing a refund could take away: either reading holds.
                s.status = s.underlying == .incomplete ? nil : taken.kind ?? nil
                s.accessDefined = false
                s.willRenew = nil
            }

            // W6: the first invoice, paid during a trial with an amount, is the upfront charge.
            let trials = Set(facts.compactMap { _, f in f.trialEnd.map { end in [(f.trialStart ?? f.createdAt).microseconds, end.microseconds] } })
            if let upfront = mine.first(where: { i in
                i.1.paid && i.1.billingReason == "subscription_create" && i.1.amountPaid > 0
                    && trials.contains { $0[0] <= i.0.created.microseconds && i.0.created.microseconds < $0[1] }
            }) {
                s.upfrontPaid = upfront.1.amountPaid
                s.upfrontDefined = !taken.refundedInvoices.contains(upfront.1.invoiceID)
            }

            // W7: the hold names the subscription, or naming none is of its customer and product.
            let holds = intents.filter { p in
                p.1.manualCapture && (p.1.subscriptionID == id
                    || p.1.subscriptionID == nil && p.1.customerID != nil && p.1.customerID == latest.customerID
                        && p.1.productID != nil && p.1.productID == latest.productID)
            }
            let holdIDs = Set(holds.map(\.1.paymentIntentID))
            s.holdDefined = holdIDs.count <= 1
            s.hold = holds.map { p -> (Int, WebSubscription.Hold?) in
                switch p.1.status {
                case "succeeded": (2, .captured)
                case "canceled": (2, p.1.cancellationReason == "automatic" ? .expired : .released)
                case "requires_capture": (1, .placed)
                default: (0, nil)
                }
            }.max { $0.0 < $1.0 }?.1

            // W8: a renewal's failure not paid since, shown while Stripe retries (`past_due`).
            let failures = mine.filter { !$0.1.paid }
            if let lastFailure = failures.max(by: { $0.0.created < $1.0.created }) {
                let paidSince = mine.filter { $0.1.paid && $0.0.created >= lastFailure.0.created }
                if paidSince.contains(where: { $0.0.created > lastFailure.0.created }) {
                    s.paymentFailed = false
                } else if paidSince.isEmpty && lastFailure.1.billingReason == "subscription_cycle"
                            && !failures.contains(where: { $0.0.created == lastFailure.0.created && $0.1.billingReason != "subscription_cycle" }) {
                    s.paymentFailed = true
                }
            } else {
                s.paymentFailed = false
            }
            // Stripe's own word after the failure: running again means paid (or forgiven).
            if [.trialing, .active].contains(s.underlying) { s.paymentFailed = false }
            if ![.trialing, .active, .pastDue].contains(s.underlying) || s.revokedAt != nil { s.paymentFailed = nil }
            subscriptions[id] = s
        }

        // W10, W11 for one-time purchases, through their payment intent.
        for (_, c) in checkouts where c.mode == "payment" {
            var p = Payment(sessionID: c.sessionID, productID: c.productID, paid: c.paymentStatus == "paid", disputed: false)
            (p.userID, p.userDefined) = users.user(of: c.sessionID)
            let taken = revocations(invoiceIDs: [], intentIDs: Set([c.paymentIntentID].compactMap { $0 }))
            p.revokedAt = taken.at
            p.disputed = taken.disputed
            payments[c.sessionID] = p
        }
    }

    /// W4: the stages of Stripe's lifecycle, a tie in time going to the later.
    static func stage(_ s: StripeFact.Subscription) -> Int {
        if s.deleted { return 7 }
        return ["incomplete": 0, "incomplete_expired": 1, "trialing": 2, "active": 3, "past_due": 4, "unpaid": 5, "paused": 5,
                "canceled": 6][s.status] ?? -1
    }

    /// W3: the user of each Stripe id: the one named by the facts that share ids with it,
    /// followed to a fixpoint (the facts linked through the ids they name, as a graph whose
    /// connected parts are found by union-find).
    struct Users {
        private var parent: [String: String] = [:]
        private var named: [String: Set<String>] = [:]

        init(_ events: [StripeEventRecorded]) {
            for e in events {
                let ids = Self.ids(e.fact)
                for id in ids where parent[id] == nil { parent[id] = id }
                for pair in zip(ids, ids.dropFirst()) { union(pair.0, pair.1) }
            }
            for e in events {
                guard let user = e.userID, let first = Self.ids(e.fact).first else { continue }
                named[root(first), default: []].insert(user)
            }
        }

        /// The user `id` reaches, and whether it reaches one only (nil, true: none).
        func user(of id: String) -> (String?, Bool) {
            guard parent[id] != nil else { return (nil, true) }
            let users = named[root(id)] ?? []
            return users.count <= 1 ? (users.first, true) : (nil, false)
        }

        static func ids(_ fact: StripeFact) -> [String] {
            let ids: [String?] = switch fact {
            case .checkout(let c): [c.sessionID, c.customerID, c.subscriptionID, c.paymentIntentID]
            case .subscription(let s): [s.subscriptionID, s.customerID]
            case .invoice(let i): [i.invoiceID, i.subscriptionID, i.customerID, i.paymentIntentID]
            case .paymentIntent(let p): [p.paymentIntentID, p.customerID, p.subscriptionID]
            case .refund(let r): [r.chargeID, r.paymentIntentID, r.invoiceID, r.customerID]
            case .dispute(let d): [d.disputeID, d.chargeID, d.paymentIntentID]
            case .seen: []
            }
            return ids.compactMap { $0 }
        }

        private func root(_ id: String) -> String {
            var at = id
            while let up = parent[at], up != at { at = up }
            return at
        }

        private mutating func union(_ a: String, _ b: String) {
            let (ra, rb) = (root(a), root(b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
    }
}
