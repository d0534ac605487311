import LedgerDomain
import TestSupport

/// Generated Stripe histories of a few customers over seven months, as Stripe's webhooks
/// would tell them: Checkout, trials in the catalog's three modes (free; paid, with an
/// upfront first invoice; an authorization hold that is captured, released or expires),
/// conversions, monthly renewals, failed payments and Stripe's retries, recovery,
/// `unpaid`, pauses, cancellation at the period's end or at once, deletion, full and
/// partial refunds (naming the invoice, the payment intent or both), disputes opened, won
/// and lost (and updated after they closed), one-time purchases, payment intents that are no hold, and events the rules do
/// not read. Several subscriptions may share a customer; a customer's user is named by
/// the checkout, by the objects' metadata, or only reached through the ids they share.
/// Event ids are random, so a tie in time is not settled by the order of generation.
struct StripeHistory {
    static let day = WebFacts.day, hour = WebFacts.hour

    var events: [StripeEventRecorded] = []
    private var random: SeededRandom
    /// Where the history stops: what Stripe had sent by then (from two weeks to seven
    /// months in, so that it stops in trials, in dunning, or long after).
    private let horizon: Int64
    private var serial = 0
    private var eventIDs = Set<String>()

    static func generate(_ random: inout SeededRandom) -> [StripeEventRecorded] {
        var history = StripeHistory(random: SeededRandom(seed: random.next()))
        history.world()
        return history.events
    }

    private init(random: SeededRandom) {
        self.random = random
        horizon = WebFacts.epoch + Int64(self.random.int(14...210)) * Self.day
    }

    // MARK: - Customers

    private mutating func world() {
        var users: [String] = []
        for k in 0..<random.int(1...3) {
            // Now and then one user pays through two customers.
            let user = !users.isEmpty && random.chance(0.25) ? random.pick(users) : "user-\(k)"
            users.append(user)
            let customer = "cus_\(k)"
            if random.chance(0.3) { emit("customer.created", WebFacts.epoch + Int64(k), user: user, .seen) }
            var start = WebFacts.epoch + Int64(random.int(0...20)) * Self.day + Int64(random.int(0...86_399))
            var products: [String] = []
            for j in 0..<random.pick([1, 1, 1, 2, 2, 0]) {
                products.append(j > 0 && random.chance(0.3) ? products[0] : random.pick(["monthly", "yearly", "pro"].filter { !products.contains($0) }))
            }
            for (j, product) in products.enumerated() {
                // A second subscription of the customer may be made through the API, with no
                // checkout and no user on it: its user is the customer's.
                let viaCheckout = j == 0 || random.chance(0.5)
                subscription(customer: customer, user: user, product: product, start: start, checkout: viaCheckout,
                             userOnObjects: viaCheckout && random.chance(0.5), holdMayNameNone: products.filter { $0 == product }.count == 1)
                start += Int64(random.int(5...60)) * Self.day + Int64(random.int(0...86_399))
            }
            if products.isEmpty || random.chance(0.3) { oneTimePurchase(customer: random.chance(0.7) ? customer : nil, user: user) }
        }
    }

    // MARK: - One subscription's life

    private struct Sub {
        var id: String, customer: String, product: String, created: Int64
        var status = "incomplete"
        var periodEnd: Int64?, trialStart: Int64?, trialEnd: Int64?
        var cancelAtPeriodEnd = false
        var canceledAt: Int64?, endedAt: Int64?
    }

    private struct Charge {
        var invoice: String, intent: String, charge: String, amount: Int64, at: Int64
    }

    private enum Trial { case none, free, paid, authHold }

    private mutating func subscription(customer: String, user: String, product: String, start: Int64, checkout: Bool,
                                       userOnObjects: Bool, holdMayNameNone: Bool) {
        var s = Sub(id: next("sub"), customer: customer, product: product, created: start)
        let objectUser = userOnObjects ? user : nil
        let trial = random.pick([Trial.none, .none, .free, .paid, .authHold])
        var t = start
        var last: Charge?
        var hold: (id: String, names: String?, live: Bool)?

        func tie() -> Int64 { [0, 0, 0, 1, 2].randomElement(using: &random)! }

        switch trial {
        case .none:
            s.periodEnd = start + 30 * Self.day
            emitSub(s, "created", start, objectUser)
            let invoice = next("in"), intent = next("pi")
            if random.chance(0.12) {   // the first payment fails
                emitInvoice(s, invoice, intent, paid: false, amount: 999, reason: "subscription_create", at: start)
                if random.chance(0.5) {
                    s.status = "incomplete_expired"
                    emitSub(s, "updated", start + 23 * Self.hour, objectUser)
                    return
                }
                t = start + Int64(random.int(60...3_600))
            }
            last = emitInvoice(s, invoice, intent, paid: true, amount: 999, reason: "subscription_create", at: t)
            s.status = "active"
            emitSub(s, "updated", t + tie(), objectUser)
            if checkout { emitCheckout(s, user: user, status: "paid", amount: 999, at: t + tie()) }
        case .free, .paid, .authHold:
            let trialEnd = start + random.pick([7, 14, 30]) * Self.day
            s.trialStart = start
            s.trialEnd = trialEnd
            s.periodEnd = trialEnd
            if trial == .paid {
                emitSub(s, "created", start, objectUser)
                last = emitInvoice(s, next("in"), next("pi"), paid: true, amount: 199, reason: "subscription_create", at: start)
                s.status = "trialing"
                emitSub(s, "updated", start + tie(), objectUser)
                if checkout { emitCheckout(s, user: user, status: "paid", amount: 199, at: start + tie()) }
            } else {
                s.status = "trialing"
                emitSub(s, "created", start, objectUser)
                emitInvoice(s, next("in"), nil, paid: true, amount: 0, reason: "subscription_create", at: start)
                if checkout { emitCheckout(s, user: user, status: "no_payment_required", amount: 0, at: start + tie()) }
            }
            if trial == .authHold {
                let id = next("pi")
                let names: String? = holdMayNameNone && random.chance(0.3) ? nil : s.id
                hold = (id, names, true)
                emit("payment_intent.amount_capturable_updated", start + Int64(random.int(1...30)), user: random.chance(0.5) ? user : nil,
                     WebFacts.hold(id, .placed, subscription: names, customer: customer, product: product))
                if trialEnd - start > 7 * Self.day && random.chance(0.6) {   // the card's authorization lapses
                    emit("payment_intent.canceled", start + 7 * Self.day, user: nil,
                         WebFacts.hold(id, .expired, subscription: names, customer: customer, product: product))
                    hold?.live = false
                }
            }
            func settleHold(_ step: WebFacts.HoldStep, at: Int64) {
                guard let h = hold, h.live, at <= horizon else { return }
                emit(step == .captured ? "payment_intent.succeeded" : "payment_intent.canceled", at, user: nil,
                     WebFacts.hold(h.id, step, subscription: h.names, customer: customer, product: product))
                hold?.live = false
            }
            if let charge = last {
                last = nil
                if let stop = aftermath(charge, s, from: start + Self.hour, until: trialEnd - Self.hour, cancels: true) {
                    end(&s, at: stop, objectUser)
                    settleHold(.released, at: stop + 1)
                    return
                }
            }
            if random.chance(0.2) {   // set to end at the trial's end, and maybe changed back
                let at = start + Int64(random.int(1...Int(trialEnd - start - 2 * Self.hour)))
                s.cancelAtPeriodEnd = true
                s.canceledAt = at
                emitSub(s, "updated", at, objectUser)
                if random.chance(0.5) {
                    s.cancelAtPeriodEnd = false
                    s.canceledAt = nil
                    emitSub(s, "updated", at + Int64(random.int(1...Int(trialEnd - at - Self.hour))), objectUser)
                }
            }
            if s.cancelAtPeriodEnd {
                end(&s, at: trialEnd, objectUser)
                settleHold(.released, at: trialEnd + 1)
                return
            }
            switch random.int(0...9) {
            case 0:   // canceled at once during the trial
                let at = start + Int64(random.int(Int(Self.hour)...Int(trialEnd - start - Self.hour)))
                end(&s, at: at, objectUser)
                settleHold(.released, at: at + Int64(random.int(0...5)))
                return
            case 1 where trial != .paid:   // no payment method at the trial's end: paused
                s.status = "paused"
                emitSub(s, "updated", trialEnd, objectUser)
                settleHold(.released, at: trialEnd + 1)
                let resumed = trialEnd + Int64(random.int(1...20)) * Self.day
                guard random.chance(0.5), resumed <= horizon else { return }
                last = emitInvoice(s, next("in"), next("pi"), paid: true, amount: 999, reason: "subscription_cycle", at: resumed)
                s.status = "active"
                s.periodEnd = resumed + 30 * Self.day
                emitSub(s, "updated", resumed + tie(), objectUser)
                t = resumed
            case 2, 3:   // the conversion's payment fails
                settleHold(.released, at: trialEnd + 1)
                guard let recovered = dunning(&s, at: trialEnd, objectUser, &last) else { return }
                t = recovered
            default:   // converts
                last = emitInvoice(s, next("in"), next("pi"), paid: true, amount: 999, reason: "subscription_cycle", at: trialEnd)
                s.status = "active"
                s.periodEnd = trialEnd + 30 * Self.day
                emitSub(s, "updated", trialEnd + tie(), objectUser)
                settleHold(.captured, at: trialEnd + Int64(random.int(0...60)))
                t = trialEnd
            }
        }

        // Monthly periods until the horizon.
        while let periodEnd = s.periodEnd, periodEnd <= horizon {
            if let charge = last {
                last = nil
                if let stop = aftermath(charge, s, from: max(charge.at, t) + Self.hour, until: periodEnd - Self.hour, cancels: true) {
                    end(&s, at: stop, objectUser)
                    return
                }
            }
            if random.chance(0.05) {   // canceled at once
                end(&s, at: t + Int64(random.int(Int(Self.hour)...Int(periodEnd - t - Self.hour))), objectUser)
                return
            }
            if !s.cancelAtPeriodEnd && random.chance(0.1) {
                s.cancelAtPeriodEnd = true
                s.canceledAt = t + Int64(random.int(Int(Self.hour)...Int(periodEnd - t - Self.hour)))
                emitSub(s, "updated", s.canceledAt!, objectUser)
            }
            if s.cancelAtPeriodEnd {
                end(&s, at: periodEnd, objectUser)
                return
            }
            if s.trialEnd == nil && random.chance(0.05) {   // the merchant grants a trial now: a new period, free until it ends
                let granted = t + Int64(random.int(Int(Self.hour)...Int(periodEnd - t - Self.hour)))
                s.status = "trialing"
                s.trialStart = granted
                s.trialEnd = granted + random.pick([14, 30]) * Self.day
                s.periodEnd = s.trialEnd
                emitSub(s, "updated", granted, objectUser)
                t = granted
                continue
            }
            if random.chance(0.8) {
                last = emitInvoice(s, next("in"), next("pi"), paid: true, amount: 999, reason: "subscription_cycle", at: periodEnd)
                s.status = "active"
                s.periodEnd = periodEnd + 30 * Self.day
                emitSub(s, "updated", periodEnd + tie(), objectUser)
                t = periodEnd
            } else {
                guard let recovered = dunning(&s, at: periodEnd, objectUser, &last) else { return }
                t = recovered
            }
        }
    }

    /// A renewal's payment fails at `at`: Stripe retries three times; the subscription
    /// recovers, or is left `unpaid` (and maybe paid later), or is canceled. When it
    /// recovered; nil when it did not.
    private mutating func dunning(_ s: inout Sub, at: Int64, _ user: String?, _ last: inout Charge?) -> Int64? {
        let invoice = next("in"), intent = next("pi")
        s.status = "past_due"
        s.periodEnd = at + 30 * Self.day
        emitSub(s, "updated", at, user)
        emitInvoice(s, invoice, intent, paid: false, amount: 999, reason: "subscription_cycle", at: at, next: at + 3 * Self.day)
        for (attempt, days) in [(2, Int64(3)), (3, 5), (4, 7)] {
            let retry = at + days * Self.day
            guard retry <= horizon else { return nil }
            if random.chance(0.35) {
                last = emitInvoice(s, invoice, intent, paid: true, amount: 999, reason: "subscription_cycle", at: retry, attempt: Int64(attempt))
                s.status = "active"
                emitSub(s, "updated", retry + Int64(random.int(0...1)), user)
                return retry + 1
            }
            emitInvoice(s, invoice, intent, paid: false, amount: 999, reason: "subscription_cycle", at: retry, attempt: Int64(attempt),
                        next: attempt < 4 ? retry + 2 * Self.day : nil)
        }
        let giveUp = at + 7 * Self.day + Self.hour
        if random.chance(0.5) {
            end(&s, at: giveUp, user)
            return nil
        }
        s.status = "unpaid"
        emitSub(s, "updated", giveUp, user)
        let paid = at + Int64(random.int(10...25)) * Self.day
        guard random.chance(0.4), paid <= horizon else { return nil }
        last = emitInvoice(s, invoice, intent, paid: true, amount: 999, reason: "subscription_cycle", at: paid, attempt: 5)
        s.status = "active"
        emitSub(s, "updated", paid + Int64(random.int(0...1)), user)
        return paid + 1
    }

    /// Ends the subscription at `at`: `customer.subscription.deleted`, sometimes after an
    /// `updated` saying `canceled` in the same second.
    private mutating func end(_ s: inout Sub, at: Int64, _ user: String?) {
        s.status = "canceled"
        s.canceledAt = s.canceledAt ?? at
        s.endedAt = random.chance(0.9) ? at : nil
        if random.chance(0.3) { emitSub(s, "updated", at, user) }
        emitSub(s, "deleted", at, user)
    }

    /// Maybe a refund or a dispute of `charge` between `from` and `until`. Returns when the
    /// merchant canceled the subscription after refunding it in full, if it did.
    private mutating func aftermath(_ c: Charge, _ s: Sub?, from: Int64, until: Int64, cancels: Bool) -> Int64? {
        guard until - from > 2 * Self.hour, c.amount > 0 else { return nil }
        var stop: Int64?
        if random.chance(0.1) {
            let at = from + Int64(random.int(0...Int(until - from - Self.hour)))
            let full = random.chance(0.6)
            let byIntent = s == nil || random.chance(0.75)   // a one-time purchase's charge has no invoice
            emit("charge.refunded", at, user: nil,
                 WebFacts.refund(c.charge, paymentIntent: byIntent ? c.intent : nil, invoice: s != nil && (!byIntent || random.chance(0.5)) ? c.invoice : nil,
                                 customer: s?.customer, amount: c.amount, refunded: full ? c.amount : c.amount / 3))
            if full && cancels && random.chance(0.5) { stop = at + random.pick([0, 30, 300]) }
        }
        if random.chance(0.1) {
            let opened = from + Int64(random.int(0...Int(until - from - Self.hour)))
            let id = next("dp")
            emit("charge.dispute.created", opened, user: nil,
                 WebFacts.dispute(id, charge: c.charge, paymentIntent: c.intent, amount: c.amount, status: "needs_response", closed: false))
            if random.chance(0.5) {
                emit("charge.dispute.updated", opened + 2 * Self.day, user: nil,
                     WebFacts.dispute(id, charge: c.charge, paymentIntent: c.intent, amount: c.amount, status: "under_review", closed: false))
            }
            let closed = opened + Int64(random.int(20...70)) * Self.day
            if closed <= horizon && random.chance(0.8) {
                let outcome = random.pick(["won", "lost", "lost", "warning_closed"])
                emit("charge.dispute.closed", closed, user: nil,
                     WebFacts.dispute(id, charge: c.charge, paymentIntent: c.intent, amount: c.amount, status: outcome, closed: true))
                if random.chance(0.2) {   // the merchant edits the closed dispute's metadata: Stripe says `updated`
                    emit("charge.dispute.updated", closed + Int64(random.int(1...5)) * Self.day, user: nil,
                         WebFacts.dispute(id, charge: c.charge, paymentIntent: c.intent, amount: c.amount, status: outcome, closed: false))
                }
            }
        }
        return stop
    }

    private mutating func oneTimePurchase(customer: String?, user: String) {
        let at = WebFacts.epoch + Int64(random.int(0...Int((horizon - WebFacts.epoch) / Self.day))) * Self.day + Int64(random.int(0...86_399))
        let session = next("cs"), intent = next("pi")
        let paid = random.chance(0.9)
        let named = random.chance(0.8)
        emit("checkout.session.completed", at, user: named ? user : nil,
             WebFacts.checkout(session, mode: "payment", customer: customer, subscription: nil, paymentIntent: intent,
                               status: paid ? "paid" : "unpaid", product: random.pick(["lifetime", "coins"]), amount: 4_999))
        guard paid else { return }
        if !named || random.chance(0.4) {   // the payment intent's metadata names the user
            emit("payment_intent.succeeded", at + Int64(random.int(0...2)), user: user, WebFacts.payment(intent, customer: customer, amount: 4_999))
        }
        _ = aftermath(Charge(invoice: "-", intent: intent, charge: "ch_" + intent.dropFirst(3), amount: 4_999, at: at), nil,
                      from: at + Self.hour, until: horizon, cancels: false)
    }

    // MARK: - Emitting

    private mutating func next(_ prefix: String) -> String {
        serial += 1
        return "\(prefix)_\(serial)"
    }

    private mutating func emit(_ type: String, _ at: Int64, user: String?, _ fact: StripeFact) {
        guard at <= horizon else { return }
        var id: String
        repeat { id = "evt_" + random.string(from: Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), length: 14) }
        while !eventIDs.insert(id).inserted
        events.append(WebFacts.event(id, type, at: WebFacts.time(at), user: user, fact))
        if random.chance(0.05) { emit(random.pick(["invoice.finalized", "charge.succeeded", "customer.updated"]), at, user: nil, .seen) }
    }

    private mutating func emitSub(_ s: Sub, _ what: String, _ at: Int64, _ user: String?) {
        emit("customer.subscription.\(what)", at, user: user,
             WebFacts.subscription(s.id, customer: s.customer, status: s.status, product: s.product, created: WebFacts.time(s.created),
                                   periodEnd: s.periodEnd.map(WebFacts.time), trialStart: s.trialStart.map(WebFacts.time),
                                   trialEnd: s.trialEnd.map(WebFacts.time),
                                   cancelAtPeriodEnd: s.cancelAtPeriodEnd, canceledAt: s.canceledAt.map(WebFacts.time),
                                   endedAt: s.endedAt.map(WebFacts.time), deleted: what == "deleted"))
    }

    @discardableResult
    private mutating func emitInvoice(_ s: Sub, _ invoice: String, _ intent: String?, paid: Bool, amount: Int64, reason: String, at: Int64,
                                      attempt: Int64 = 1, next: Int64? = nil) -> Charge? {
        emit(paid ? "invoice.paid" : "invoice.payment_failed", at, user: nil,
             WebFacts.invoice(invoice, subscription: s.id, customer: s.customer, paymentIntent: amount > 0 ? intent : nil, paid: paid,
                              amount: amount, reason: reason, attempt: attempt, nextAttempt: next.map(WebFacts.time)))
        guard paid, amount > 0, let intent else { return nil }
        if random.chance(0.4) { emit("payment_intent.succeeded", at, user: nil, WebFacts.payment(intent, customer: s.customer, amount: amount)) }
        return Charge(invoice: invoice, intent: intent, charge: "ch_" + intent.dropFirst(3), amount: amount, at: at)
    }

    private mutating func emitCheckout(_ s: Sub, user: String, status: String, amount: Int64, at: Int64) {
        emit("checkout.session.completed", at, user: random.chance(0.9) ? user : nil,
             WebFacts.checkout(next("cs"), customer: s.customer, subscription: s.id, status: status, product: s.product, amount: amount))
    }
}
