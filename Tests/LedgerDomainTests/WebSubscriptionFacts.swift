import LedgerDomain

/// Stripe's events as the ledger records them (`StripeEventRecorded`, the fields
/// `StripeEvent.recorded` reads from a webhook), for the web subscription tests: each
/// builder takes what a test varies and fills the rest as Stripe would.
enum WebFacts {
    static let app = "app1"
    static let day: Int64 = 86_400
    static let hour: Int64 = 3_600
    /// 2026-01-01T00:00:00Z, in Unix seconds (Stripe's unit).
    static let epoch: Int64 = 1_767_225_600

    /// Unix seconds as a timestamp.
    static func time(_ seconds: Int64) -> Timestamp { Timestamp(microseconds: seconds * 1_000_000)! }
    /// `days` (and `seconds`) after 2026-01-01.
    static func day(_ days: Int64, _ seconds: Int64 = 0) -> Timestamp { time(epoch + days * day + seconds) }

    static func event(_ id: String, _ type: String, at: Timestamp, user: String? = nil, livemode: Bool = false,
                      account: String? = nil, _ fact: StripeFact) -> StripeEventRecorded {
        StripeEventRecorded(appID: app, eventID: id, eventType: type, created: at, livemode: livemode, account: account,
                            userID: user, fact: fact)
    }

    static func subscription(_ id: String, customer: String? = "cus_1", status: String, product: String? = "monthly",
                             created: Timestamp, periodEnd: Timestamp?, trialStart: Timestamp? = nil, trialEnd: Timestamp? = nil,
                             cancelAtPeriodEnd: Bool = false, canceledAt: Timestamp? = nil, endedAt: Timestamp? = nil,
                             deleted: Bool = false) -> StripeFact {
        .subscription(StripeFact.Subscription(subscriptionID: id, customerID: customer, status: status, productID: product,
                                              createdAt: created, periodEnd: periodEnd, trialStart: trialEnd == nil ? nil : trialStart ?? created,
                                              trialEnd: trialEnd, cancelAtPeriodEnd: cancelAtPeriodEnd, canceledAt: canceledAt,
                                              endedAt: endedAt, deleted: deleted))
    }

    /// `invoice.paid` (`paid`) or `invoice.payment_failed`.
    static func invoice(_ id: String, subscription: String?, customer: String? = "cus_1", paymentIntent: String?, paid: Bool,
                        amount: Int64, reason: String, attempt: Int64 = 1, nextAttempt: Timestamp? = nil) -> StripeFact {
        .invoice(StripeFact.Invoice(invoiceID: id, subscriptionID: subscription, customerID: customer, paymentIntentID: paymentIntent,
                                    paid: paid, amountPaid: paid ? amount : 0, amountDue: amount, currency: "usd", billingReason: reason,
                                    attemptCount: attempt, nextPaymentAttempt: nextAttempt, periodEnd: nil))
    }

    /// What a trial's authorization hold became, as its payment intent's events say it.
    enum HoldStep { case placed, captured, released, expired }

    /// A manual-capture payment intent: `payment_intent.amount_capturable_updated`,
    /// `.succeeded` or `.canceled`.
    static func hold(_ id: String, _ step: HoldStep, subscription: String?, customer: String? = "cus_1", product: String? = "monthly",
                     amount: Int64 = 100) -> StripeFact {
        let (status, capturable, received, reason): (String, Int64, Int64, String?) = switch step {
        case .placed: ("requires_capture", amount, 0, nil)
        case .captured: ("succeeded", 0, amount, nil)
        case .released: ("canceled", 0, 0, "requested_by_customer")
        case .expired: ("canceled", 0, 0, "automatic")
        }
        return .paymentIntent(StripeFact.PaymentIntent(paymentIntentID: id, customerID: customer, subscriptionID: subscription,
                                                       productID: product, status: status, manualCapture: true, amount: amount,
                                                       amountCapturable: capturable, amountReceived: received, currency: "usd",
                                                       cancellationReason: reason))
    }

    /// `payment_intent.succeeded` of an automatically captured payment (an invoice's, a
    /// one-time purchase's): no hold.
    static func payment(_ id: String, customer: String? = "cus_1", amount: Int64) -> StripeFact {
        .paymentIntent(StripeFact.PaymentIntent(paymentIntentID: id, customerID: customer, subscriptionID: nil, productID: nil,
                                                status: "succeeded", manualCapture: false, amount: amount, amountCapturable: 0,
                                                amountReceived: amount, currency: "usd", cancellationReason: nil))
    }

    /// `charge.refunded`: `refunded` of `amount`, the whole charge when they are equal.
    static func refund(_ charge: String, paymentIntent: String?, invoice: String?, customer: String? = "cus_1", amount: Int64,
                       refunded: Int64) -> StripeFact {
        .refund(StripeFact.Refund(chargeID: charge, paymentIntentID: paymentIntent, invoiceID: invoice, customerID: customer,
                                  amount: amount, amountRefunded: refunded, full: refunded == amount, currency: "usd"))
    }

    /// `charge.dispute.created` / `.updated` (open) or `.closed`.
    static func dispute(_ id: String, charge: String?, paymentIntent: String?, amount: Int64, status: String, closed: Bool) -> StripeFact {
        .dispute(StripeFact.Dispute(disputeID: id, chargeID: charge, paymentIntentID: paymentIntent, amount: amount, currency: "usd",
                                    status: status, closed: closed))
    }

    /// `checkout.session.completed`.
    static func checkout(_ session: String, mode: String = "subscription", customer: String? = "cus_1", subscription: String?,
                         paymentIntent: String? = nil, status: String = "paid", product: String?, amount: Int64) -> StripeFact {
        .checkout(StripeFact.Checkout(sessionID: session, mode: mode, customerID: customer, subscriptionID: subscription,
                                      paymentIntentID: paymentIntent, paymentStatus: status, productID: product, amountTotal: amount,
                                      currency: "usd"))
    }
}

/// A short history written by a test, one event after another, each with the next event id
/// (`evt_001`, `evt_002`, …) unless the test names one.
struct StripeStory {
    var events: [StripeEventRecorded] = []

    mutating func add(_ type: String, _ at: Timestamp, user: String? = nil, id: String? = nil, _ fact: StripeFact) {
        let number = String(events.count + 1)
        events.append(WebFacts.event(id ?? "evt_" + String(repeating: "0", count: max(0, 3 - number.count)) + number, type, at: at,
                                   user: user, fact))
    }

    var holdings: WebHoldings { WebHoldings.fold(events) }

    /// The facts Stripe had sent by `instant`, folded: what the ledger said then.
    func holdings(asOf instant: Timestamp) -> WebHoldings { WebHoldings.fold(events.filter { $0.created <= instant }) }

    func subscription(_ id: String) -> WebSubscription? { holdings.subscriptions.first { $0.subscriptionID == id } }
}
