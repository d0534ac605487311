/// What a user holds on the web, folded from the payment processor's facts: the
/// subscriptions and one-time purchases they tell of. The fold depends on the set of
/// facts only, never on their order (Stripe promises none) or on a fact seen twice: each
/// subscription's state is its latest subscription fact by Stripe's own time (`created`),
/// ties going to the later stage of the lifecycle and then to the greater event id, and
/// the other facts (invoices, holds, refunds, disputes) attach to it through the Stripe
/// ids they share (docs/web-checkout.md, "Order").
public struct WebHoldings: Sendable, Hashable {
    public var subscriptions: [WebSubscription]
    public var payments: [WebPayment]

    public init(subscriptions: [WebSubscription] = [], payments: [WebPayment] = []) {
        self.subscriptions = subscriptions
        self.payments = payments
    }

    /// Folds `events` (of one app; any order, duplicates allowed).
    public static func fold(_ events: [StripeEventRecorded]) -> WebHoldings {
        var byID: [String: StripeEventRecorded] = [:]
        for e in events where byID[e.eventID] == nil { byID[e.eventID] = e }
        let ordered = byID.values.sorted { ($0.created, $0.eventID) < ($1.created, $1.eventID) }
        return Folding(ordered).holdings()
    }

    /// The catalog's purchases these are (trial eligibility, Switch & Save and Upgrade &
    /// Save read them as they read StoreKit's): a subscription that never started is none.
    public var purchases: [UserPurchase] {
        let subs = subscriptions.compactMap { s -> UserPurchase? in
            guard s.status != .incomplete, let product = s.productID else { return nil }
            return UserPurchase(source: .web, originalID: s.subscriptionID, productID: product, purchasedAt: s.createdAt,
                                expiresAt: s.accessEndsAt ?? s.createdAt, revokedAt: s.revokedAt, trial: s.trialEnd != nil)
        }
        let bought = payments.compactMap { p -> UserPurchase? in
            guard p.paid, let product = p.productID else { return nil }
            return UserPurchase(source: .web, originalID: p.sessionID, productID: product, purchasedAt: p.purchasedAt,
                                expiresAt: nil, revokedAt: p.revokedAt)
        }
        return subs + bought
    }
}

/// The fold's working state: the facts by kind, and the links between Stripe's ids.
private struct Folding {
    typealias Event = StripeEventRecorded
    var checkouts: [(Event, StripeFact.Checkout)] = []
    var subscriptionFacts: [String: [(Event, StripeFact.Subscription)]] = [:]
    var invoices: [(Event, StripeFact.Invoice)] = []
    var intents: [(Event, StripeFact.PaymentIntent)] = []
    var refunds: [(Event, StripeFact.Refund)] = []
    var disputes: [(Event, StripeFact.Dispute)] = []

    /// W3: the user of each group of facts sharing Stripe ids.
    let users: LinkedUsers

    init(_ ordered: [Event]) {
        users = LinkedUsers(ordered)
        for e in ordered {
            switch e.fact {
            case .checkout(let c): checkouts.append((e, c))
            case .subscription(let s): subscriptionFacts[s.subscriptionID, default: []].append((e, s))
            case .invoice(let i): invoices.append((e, i))
            case .paymentIntent(let p): intents.append((e, p))
            case .refund(let r): refunds.append((e, r))
            case .dispute(let d): disputes.append((e, d))
            case .seen: break
            }
        }
    }

    /// Where the stage of Stripe's lifecycle a status is: a tie in time goes to the later.
    static func stage(_ s: StripeFact.Subscription) -> Int {
        if s.deleted { return 10 }
        return switch s.status {
        case "incomplete": 0
        case "incomplete_expired": 1
        case "trialing": 2
        case "active": 3
        case "past_due": 4
        case "unpaid", "paused": 5
        case "canceled": 6
        default: -1
        }
    }

    func holdings() -> WebHoldings {
        // Payment intents and invoices to the subscription or checkout they paid.
        var subscriptionOfInvoice: [String: String] = [:]
        var subscriptionOfIntent: [String: String] = [:]
        for (_, i) in invoices {
            if let sub = i.subscriptionID {
                subscriptionOfInvoice[i.invoiceID] = sub
                if let pi = i.paymentIntentID { subscriptionOfIntent[pi] = sub }
            }
        }
        var sessionOfIntent: [String: String] = [:]
        for (_, c) in checkouts where c.mode == "payment" { if let pi = c.paymentIntentID { sessionOfIntent[pi] = c.sessionID } }
        var intentOfCharge: [String: String] = [:]
        for (_, r) in refunds { if let pi = r.paymentIntentID { intentOfCharge[r.chargeID] = pi } }

        // Each subscription named by a subscription fact or a checkout.
        var subscriptionIDs = Set(subscriptionFacts.keys)
        for (_, c) in checkouts where c.mode == "subscription" { if let s = c.subscriptionID { subscriptionIDs.insert(s) } }

        func owner(ofIntent pi: String?, invoice: String? = nil) -> (sub: String?, session: String?) {
            if let invoice, let sub = subscriptionOfInvoice[invoice] { return (sub, nil) }
            guard let pi else { return (nil, nil) }
            return (subscriptionOfIntent[pi], sessionOfIntent[pi])
        }
        // Revocations and open disputes, by the subscription or session they concern.
        var revoked: [String: (at: Timestamp, by: WebSubscription.Status)] = [:]
        var disputed: Set<String> = []
        func revoke(_ key: String, at: Timestamp, by: WebSubscription.Status) {
            if let r = revoked[key], r.at <= at { return }
            revoked[key] = (at, by)
        }
        for (e, r) in refunds where r.full {
            let o = owner(ofIntent: r.paymentIntentID, invoice: r.invoiceID)
            if let key = o.sub ?? o.session { revoke(key, at: e.created, by: .refunded) }
        }
        // A dispute's closing decides it (a closed dispute never reopens: an `updated` after it,
        // the merchant editing its metadata, changes nothing); else its latest fact.
        var latestDispute: [String: (Event, StripeFact.Dispute)] = [:]
        for (e, d) in disputes {
            if let (pe, pd) = latestDispute[d.disputeID], (pd.closed ? 1 : 0, pe.created, pe.eventID) >= (d.closed ? 1 : 0, e.created, e.eventID) { continue }
            latestDispute[d.disputeID] = (e, d)
        }
        for (_, (e, d)) in latestDispute {
            let pi = d.paymentIntentID ?? d.chargeID.flatMap { intentOfCharge[$0] }
            let o = owner(ofIntent: pi)
            guard let key = o.sub ?? o.session else { continue }
            if d.closed && d.status == "lost" { revoke(key, at: e.created, by: .disputeLost) }
            if !d.closed { disputed.insert(key) }
        }

        var subscriptions: [WebSubscription] = []
        for id in subscriptionIDs.sorted() {
            subscriptions.append(subscription(id, revoked: revoked[id], disputed: disputed.contains(id)))
        }
        var payments: [WebPayment] = []
        var seenSessions: Set<String> = []
        for (e, c) in checkouts where c.mode == "payment" && seenSessions.insert(c.sessionID).inserted {
            let succeeded = intents.contains { $0.1.paymentIntentID == c.paymentIntentID && $0.1.status == "succeeded" }
            payments.append(WebPayment(sessionID: c.sessionID, userID: e.userID ?? users.user(of: c.sessionID),
                                       productID: c.productID, paymentIntentID: c.paymentIntentID, purchasedAt: e.created,
                                       paid: c.paymentStatus == "paid" || succeeded, disputed: disputed.contains(c.sessionID),
                                       revokedAt: revoked[c.sessionID]?.at))
        }
        return WebHoldings(subscriptions: subscriptions, payments: payments.sorted { ($0.purchasedAt, $0.sessionID) < ($1.purchasedAt, $1.sessionID) })
    }

    func subscription(_ id: String, revoked: (at: Timestamp, by: WebSubscription.Status)?,
                      disputed: Bool) -> WebSubscription {
        let facts = subscriptionFacts[id] ?? []
        let latest = facts.max { a, b in
            (a.0.created, Self.stage(a.1), a.0.eventID) < (b.0.created, Self.stage(b.1), b.0.eventID)
        }
        let checkout = checkouts.first { $0.1.subscriptionID == id }
        let customer = latest?.1.customerID ?? checkout?.1.customerID
        let user = checkout?.0.userID ?? facts.lazy.compactMap { $0.0.userID }.first ?? users.user(of: id)
        let product = latest?.1.productID ?? facts.lazy.compactMap { $0.1.productID }.first ?? checkout?.1.productID
        let trialEnd = latest?.1.trialEnd ?? facts.lazy.compactMap { $0.1.trialEnd }.first

        var status: WebSubscription.Status
        var accessEnds: Timestamp?
        var stripeStatus = latest?.1.status ?? "incomplete"
        if let (e, s) = latest {
            switch s.deleted ? "canceled" : s.status {
            case "trialing": status = .trialing; accessEnds = s.trialEnd ?? s.periodEnd
            case "active": status = .active; accessEnds = s.periodEnd
            case "past_due": status = .pastDue; accessEnds = s.periodEnd
            // W8: no access from when Stripe said so (the period's end is not a promise any more).
            case "unpaid": status = .unpaid; accessEnds = min(s.periodEnd ?? e.created, e.created)
            case "paused": status = .paused; accessEnds = min(s.periodEnd ?? e.created, e.created)
            case "canceled": status = .ended; accessEnds = s.endedAt ?? s.canceledAt ?? e.created
            default: status = .incomplete; accessEnds = nil
            }
            if s.deleted { stripeStatus = "canceled" }
        } else {
            // Only the checkout tells of it so far: it started, as the checkout completed.
            status = .incomplete
            accessEnds = nil
        }
        if let revoked, status != .incomplete {
            status = revoked.by
            accessEnds = min(accessEnds ?? revoked.at, revoked.at)
        }

        // Invoices: a failed payment counts until the same invoice is paid.
        let own = invoices.filter { $0.1.subscriptionID == id }
        let paidInvoices = Set(own.filter { $0.1.paid }.map { $0.1.invoiceID })
        let paymentFailed = own.contains { !$0.1.paid && !paidInvoices.contains($0.1.invoiceID) }
        // W6: paid during a trial (of any of its facts: a trial granted later does not make
        // the first invoice, paid before it, an upfront charge).
        let trials = facts.compactMap { _, s in s.trialEnd.map { (s.trialStart ?? s.createdAt, $0) } }
        let upfront = own.filter { e, i in
            i.paid && i.billingReason == "subscription_create" && i.amountPaid > 0 && trials.contains { $0.0 <= e.created && e.created < $0.1 }
        }.map { $0.1.amountPaid }.max()

        // The hold: the latest manual-capture intent for it, a settled one over one placed.
        let holds = intents.filter { _, p in
            p.manualCapture && (p.subscriptionID == id || (p.subscriptionID == nil && p.customerID != nil && p.customerID == customer
                                                            && p.productID != nil && p.productID == product))
        }
        let hold = holds.max { a, b in
            (a.0.created, Self.settled(a.1) ? 1 : 0, a.0.eventID) < (b.0.created, Self.settled(b.1) ? 1 : 0, b.0.eventID)
        }.flatMap { Self.hold($0.1) }

        let cancelAtPeriodEnd = latest?.1.cancelAtPeriodEnd ?? false
        let running = [.trialing, .active, .pastDue].contains(status)
        return WebSubscription(
            subscriptionID: id, userID: user, customerID: customer, productID: product, status: status, stripeStatus: stripeStatus,
            createdAt: latest?.1.createdAt ?? checkout?.0.created ?? .minimum, accessEndsAt: accessEnds,
            willRenew: running && !cancelAtPeriodEnd, cancelAtPeriodEnd: cancelAtPeriodEnd, trialEnd: trialEnd, upfrontPaid: upfront,
            hold: hold, paymentFailed: paymentFailed && status == .pastDue, disputed: disputed, revokedAt: revoked?.at)
    }

    static func settled(_ p: StripeFact.PaymentIntent) -> Bool { p.status == "succeeded" || p.status == "canceled" }

    static func hold(_ p: StripeFact.PaymentIntent) -> WebSubscription.Hold? {
        switch p.status {
        case "requires_capture": .placed
        case "succeeded": .captured
        case "canceled": p.cancellationReason == "automatic" ? .expired : .released
        default: nil
        }
    }
}

/// W3: the facts that share a Stripe id (a customer, a subscription, a payment intent, an
/// invoice, a charge) are one group, followed to a fixpoint; a group's user is the one its
/// earliest fact naming a user names. Built from the facts in their fold order, so the
/// groups and their users depend on the set of facts only.
struct LinkedUsers {
    private var parent: [String: String] = [:]
    private var userOfRoot: [String: String] = [:]

    init(_ ordered: [StripeEventRecorded]) {
        for e in ordered {
            let links = e.fact.links
            for link in links where parent[link] == nil { parent[link] = link }
            for link in links.dropFirst() { union(links[0], link) }
        }
        for e in ordered {
            guard let user = e.userID, let first = e.fact.links.first else { continue }
            let root = find(first)
            if userOfRoot[root] == nil { userOfRoot[root] = user }
        }
    }

    /// The user of the group `id` belongs to, if any fact of it names one.
    func user(of id: String) -> String? {
        guard parent[id] != nil else { return nil }
        return userOfRoot[find(id)]
    }

    private func find(_ id: String) -> String {
        var root = id
        while let next = parent[root], next != root { root = next }
        return root
    }

    private mutating func union(_ a: String, _ b: String) {
        let (ra, rb) = (find(a), find(b))
        guard ra != rb else { return }
        // The smaller id is the root: the same partition gives the same roots.
        if ra < rb { parent[rb] = ra } else { parent[ra] = rb }
    }
}
