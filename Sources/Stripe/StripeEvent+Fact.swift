import LedgerDomain
import LedgerJSON

extension StripeEvent {
    /// The types the web checkout's rules read as facts (every other type is recorded as
    /// seen when a webhook brings it): what an endpoint should be subscribed to, and what a
    /// reconcile asks Stripe for (List all events takes at most 20 types).
    public static let factTypes = [
        "checkout.session.completed", "checkout.session.async_payment_succeeded",
        "customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
        "customer.subscription.paused", "customer.subscription.resumed",
        "invoice.paid", "invoice.payment_failed",
        "payment_intent.amount_capturable_updated", "payment_intent.succeeded", "payment_intent.canceled",
        "charge.refunded", "charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed",
    ]

    /// The event as the ledger records it for `appID`: its object read into the typed fact
    /// its type calls for (`seen` for a type the rules do not read), and the user it names.
    /// An object that lacks what its type must carry is `event_malformed`, naming the field.
    public func recorded(appID: String) throws(StripeWebhookError) -> StripeEventRecorded {
        let reader = ObjectReader(object: object, eventID: id)
        let fact: StripeFact
        var user = reader.string(["metadata", "user_id"])
        switch type {
        case "checkout.session.completed", "checkout.session.async_payment_succeeded":
            try reader.expect("checkout.session")
            user = reader.string(["client_reference_id"]) ?? user
            fact = .checkout(StripeFact.Checkout(
                sessionID: try reader.id(), mode: try reader.required(["mode"]), customerID: reader.ref("customer"),
                subscriptionID: reader.ref("subscription"), paymentIntentID: reader.ref("payment_intent"),
                paymentStatus: try reader.required(["payment_status"]), productID: reader.string(["metadata", "product_id"]),
                amountTotal: reader.amount("amount_total"), currency: reader.string(["currency"])))
        case let t where t.hasPrefix("customer.subscription."):
            try reader.expect("subscription")
            let item = object["items"]?["data"]?[0]
            fact = .subscription(StripeFact.Subscription(
                subscriptionID: try reader.id(), customerID: reader.ref("customer"), status: try reader.required(["status"]),
                productID: reader.string(["metadata", "product_id"]) ?? item?["price"]?["metadata"]?["product_id"]?.stringValue
                    ?? item?["price"]?["lookup_key"]?.stringValue,
                createdAt: try reader.requiredTime("created"),
                periodEnd: reader.time("current_period_end") ?? item?["current_period_end"]?.int64Value.flatMap(ObjectReader.timestamp),
                trialStart: reader.time("trial_start"), trialEnd: reader.time("trial_end"),
                cancelAtPeriodEnd: object["cancel_at_period_end"]?.boolValue ?? false, canceledAt: reader.time("canceled_at"),
                endedAt: reader.time("ended_at"), deleted: t == "customer.subscription.deleted"))
        case "invoice.paid", "invoice.payment_failed":
            try reader.expect("invoice")
            fact = .invoice(StripeFact.Invoice(
                invoiceID: try reader.id(),
                subscriptionID: reader.ref("subscription") ?? reader.string(["parent", "subscription_details", "subscription"]),
                customerID: reader.ref("customer"), paymentIntentID: reader.ref("payment_intent"), paid: type == "invoice.paid",
                amountPaid: reader.amount("amount_paid") ?? 0, amountDue: reader.amount("amount_due") ?? 0,
                currency: reader.string(["currency"]), billingReason: reader.string(["billing_reason"]),
                attemptCount: object["attempt_count"]?.int64Value, nextPaymentAttempt: reader.time("next_payment_attempt"),
                periodEnd: reader.time("period_end")))
        case "payment_intent.amount_capturable_updated", "payment_intent.succeeded", "payment_intent.canceled":
            try reader.expect("payment_intent")
            fact = .paymentIntent(StripeFact.PaymentIntent(
                paymentIntentID: try reader.id(), customerID: reader.ref("customer"),
                subscriptionID: reader.string(["metadata", "subscription_id"]), productID: reader.string(["metadata", "product_id"]),
                status: try reader.required(["status"]), manualCapture: reader.string(["capture_method"])?.hasPrefix("manual") ?? false,
                amount: reader.amount("amount") ?? 0, amountCapturable: reader.amount("amount_capturable") ?? 0,
                amountReceived: reader.amount("amount_received") ?? 0, currency: reader.string(["currency"]),
                cancellationReason: reader.string(["cancellation_reason"])))
        case "charge.refunded":
            try reader.expect("charge")
            let amount = reader.amount("amount") ?? 0, refunded = reader.amount("amount_refunded") ?? 0
            fact = .refund(StripeFact.Refund(
                chargeID: try reader.id(), paymentIntentID: reader.ref("payment_intent"), invoiceID: reader.ref("invoice"),
                customerID: reader.ref("customer"), amount: amount, amountRefunded: refunded,
                full: object["refunded"]?.boolValue ?? (refunded >= amount && amount > 0), currency: reader.string(["currency"])))
        case "charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed":
            try reader.expect("dispute")
            fact = .dispute(StripeFact.Dispute(
                disputeID: try reader.id(), chargeID: reader.ref("charge"), paymentIntentID: reader.ref("payment_intent"),
                amount: reader.amount("amount") ?? 0, currency: reader.string(["currency"]), status: try reader.required(["status"]),
                closed: type == "charge.dispute.closed"))
        default:
            fact = .seen
        }
        return StripeEventRecorded(appID: appID, eventID: id, eventType: type, created: created, livemode: livemode,
                                   account: account.map(ExternalID.value), userID: user.map(ExternalID.value), fact: fact)
    }
}

/// Reads the fields of an event's object, refusing a required one that is missing.
private struct ObjectReader {
    var object: JSONValue
    var eventID: String

    func malformed(_ what: String) -> StripeWebhookError {
        StripeWebhookError(.eventMalformed, "event \(eventID): data.object \(what)")
    }

    func expect(_ kind: String) throws(StripeWebhookError) {
        guard object["object"]?.stringValue == kind else { throw malformed("is not a \(kind) (its object field says \(object["object"]?.stringValue ?? "nothing"))") }
    }

    func string(_ path: [String]) -> String? {
        var value: JSONValue? = object
        for name in path { value = value?[name] }
        guard let text = value?.stringValue, !text.isEmpty else { return nil }
        return text
    }

    func required(_ path: [String]) throws(StripeWebhookError) -> String {
        guard let text = string(path) else { throw malformed("has no \(path.joined(separator: ".")) (a non-empty string)") }
        return ExternalID.value(text)
    }

    func id() throws(StripeWebhookError) -> String { try required(["id"]) }

    /// An id field, which an expanded object holds in its own `id`.
    func ref(_ name: String) -> String? {
        (object[name]?.stringValue ?? object[name]?["id"]?.stringValue).flatMap { $0.isEmpty ? nil : ExternalID.value($0) }
    }

    func amount(_ name: String) -> Int64? { object[name]?.int64Value }

    static func timestamp(_ seconds: Int64) -> Timestamp? {
        guard seconds >= 0, seconds < 253_402_300_799 else { return nil }
        return Timestamp(microseconds: seconds * 1_000_000)
    }

    func time(_ name: String) -> Timestamp? { object[name]?.int64Value.flatMap(Self.timestamp) }

    func requiredTime(_ name: String) throws(StripeWebhookError) -> Timestamp {
        guard let t = time(name) else { throw malformed("has no \(name) (Unix seconds)") }
        return t
    }
}
