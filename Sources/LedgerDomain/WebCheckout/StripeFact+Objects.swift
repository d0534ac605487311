extension StripeFact {
    /// A completed Checkout Session: who paid (`client_reference_id`), for which product
    /// (`metadata.product_id`), and the subscription or payment it made.
    public struct Checkout: Sendable, Hashable, Codable {
        /// `cs_…`.
        public var sessionID: String
        /// `subscription`, `payment` or `setup`.
        public var mode: String
        public var customerID: String?
        public var subscriptionID: String?
        public var paymentIntentID: String?
        /// `paid`, `unpaid` or `no_payment_required` (a free trial).
        public var paymentStatus: String
        public var productID: String?
        /// In the currency's smallest unit.
        public var amountTotal: Int64?
        public var currency: String?

        enum CodingKeys: String, CodingKey {
            case mode, currency
            case sessionID = "session_id", customerID = "customer_id", subscriptionID = "subscription_id"
            case paymentIntentID = "payment_intent_id", paymentStatus = "payment_status", productID = "product_id", amountTotal = "amount_total"
        }

        public init(sessionID: String, mode: String, customerID: String?, subscriptionID: String?, paymentIntentID: String?,
                    paymentStatus: String, productID: String?, amountTotal: Int64?, currency: String?) {
            self.sessionID = sessionID
            self.mode = mode
            self.customerID = customerID
            self.subscriptionID = subscriptionID
            self.paymentIntentID = paymentIntentID
            self.paymentStatus = paymentStatus
            self.productID = productID
            self.amountTotal = amountTotal
            self.currency = currency
        }
    }

    /// A subscription as an event rendered it: its status, period and trial, and whether it
    /// is set to end.
    public struct Subscription: Sendable, Hashable, Codable {
        /// `sub_…`.
        public var subscriptionID: String
        public var customerID: String?
        /// Stripe's status: `trialing`, `active`, `past_due`, `unpaid`, `canceled`,
        /// `incomplete`, `incomplete_expired`, `paused`.
        public var status: String
        /// The catalog's product: `metadata.product_id`, else the price's.
        public var productID: String?
        public var createdAt: Timestamp
        public var periodEnd: Timestamp?
        public var trialStart: Timestamp?
        public var trialEnd: Timestamp?
        public var cancelAtPeriodEnd: Bool
        public var canceledAt: Timestamp?
        public var endedAt: Timestamp?
        /// `customer.subscription.deleted`: the subscription ended.
        public var deleted: Bool

        enum CodingKeys: String, CodingKey {
            case status, deleted
            case subscriptionID = "subscription_id", customerID = "customer_id", productID = "product_id"
            case createdAt = "created_at", periodEnd = "period_end", trialStart = "trial_start", trialEnd = "trial_end"
            case cancelAtPeriodEnd = "cancel_at_period_end", canceledAt = "canceled_at", endedAt = "ended_at"
        }

        public init(subscriptionID: String, customerID: String?, status: String, productID: String?, createdAt: Timestamp,
                    periodEnd: Timestamp?, trialStart: Timestamp?, trialEnd: Timestamp?, cancelAtPeriodEnd: Bool,
                    canceledAt: Timestamp?, endedAt: Timestamp?, deleted: Bool) {
            self.subscriptionID = subscriptionID
            self.customerID = customerID
            self.status = status
            self.productID = productID
            self.createdAt = createdAt
            self.periodEnd = periodEnd
            self.trialStart = trialStart
            self.trialEnd = trialEnd
            self.cancelAtPeriodEnd = cancelAtPeriodEnd
            self.canceledAt = canceledAt
            self.endedAt = endedAt
            self.deleted = deleted
        }
    }

    /// An invoice paid, or whose payment failed (dunning).
    public struct Invoice: Sendable, Hashable, Codable {
        /// `in_…`.
        public var invoiceID: String
        public var subscriptionID: String?
        public var customerID: String?
        public var paymentIntentID: String?
        /// `invoice.paid` (true) or `invoice.payment_failed`.
        public var paid: Bool
        public var amountPaid: Int64
        public var amountDue: Int64
        public var currency: String?
        /// `subscription_create`, `subscription_cycle`, …
        public var billingReason: String?
        public var attemptCount: Int64?
        /// When Stripe retries a failed payment; nil when it will not.
        public var nextPaymentAttempt: Timestamp?
        public var periodEnd: Timestamp?

        enum CodingKeys: String, CodingKey {
            case paid, currency
            case invoiceID = "invoice_id", subscriptionID = "subscription_id", customerID = "customer_id", paymentIntentID = "payment_intent_id"
            case amountPaid = "amount_paid", amountDue = "amount_due", billingReason = "billing_reason", attemptCount = "attempt_count"
            case nextPaymentAttempt = "next_payment_attempt", periodEnd = "period_end"
        }

        public init(invoiceID: String, subscriptionID: String?, customerID: String?, paymentIntentID: String?, paid: Bool,
                    amountPaid: Int64, amountDue: Int64, currency: String?, billingReason: String?, attemptCount: Int64?,
                    nextPaymentAttempt: Timestamp?, periodEnd: Timestamp?) {
            self.invoiceID = invoiceID
            self.subscriptionID = subscriptionID
            self.customerID = customerID
            self.paymentIntentID = paymentIntentID
            self.paid = paid
            self.amountPaid = amountPaid
            self.amountDue = amountDue
            self.currency = currency
            self.billingReason = billingReason
            self.attemptCount = attemptCount
            self.nextPaymentAttempt = nextPaymentAttempt
            self.periodEnd = periodEnd
        }
    }

    /// A payment intent whose amount became capturable (an authorization hold placed),
    /// was captured, or was canceled (released, or expired: `automatic`).
    public struct PaymentIntent: Sendable, Hashable, Codable {
        /// `pi_…`.
        public var paymentIntentID: String
        public var customerID: String?
        /// `metadata.subscription_id`: the trial a hold secures.
        public var subscriptionID: String?
        public var productID: String?
        /// `requires_capture`, `succeeded`, `canceled`, …
        public var status: String
        /// `capture_method` is `manual`: an authorization hold.
        public var manualCapture: Bool
        public var amount: Int64
        public var amountCapturable: Int64
        public var amountReceived: Int64
        public var currency: String?
        /// `requested_by_customer`, `abandoned`, `automatic` (the authorization expired), …
        public var cancellationReason: String?

        enum CodingKeys: String, CodingKey {
            case status, amount, currency
            case paymentIntentID = "payment_intent_id", customerID = "customer_id", subscriptionID = "subscription_id", productID = "product_id"
            case manualCapture = "manual_capture", amountCapturable = "amount_capturable", amountReceived = "amount_received"
            case cancellationReason = "cancellation_reason"
        }

        public init(paymentIntentID: String, customerID: String?, subscriptionID: String?, productID: String?, status: String,
                    manualCapture: Bool, amount: Int64, amountCapturable: Int64, amountReceived: Int64, currency: String?,
                    cancellationReason: String?) {
            self.paymentIntentID = paymentIntentID
            self.customerID = customerID
            self.subscriptionID = subscriptionID
            self.productID = productID
            self.status = status
            self.manualCapture = manualCapture
            self.amount = amount
            self.amountCapturable = amountCapturable
            self.amountReceived = amountReceived
            self.currency = currency
            self.cancellationReason = cancellationReason
        }
    }

    /// A charge refunded, wholly or in part.
    public struct Refund: Sendable, Hashable, Codable {
        /// `ch_…`.
        public var chargeID: String
        public var paymentIntentID: String?
        public var invoiceID: String?
        public var customerID: String?
        public var amount: Int64
        public var amountRefunded: Int64
        /// The whole charge was refunded.
        public var full: Bool
        public var currency: String?

        enum CodingKeys: String, CodingKey {
            case amount, full, currency
            case chargeID = "charge_id", paymentIntentID = "payment_intent_id", invoiceID = "invoice_id", customerID = "customer_id"
            case amountRefunded = "amount_refunded"
        }

        public init(chargeID: String, paymentIntentID: String?, invoiceID: String?, customerID: String?, amount: Int64,
                    amountRefunded: Int64, full: Bool, currency: String?) {
            self.chargeID = chargeID
            self.paymentIntentID = paymentIntentID
            self.invoiceID = invoiceID
            self.customerID = customerID
            self.amount = amount
            self.amountRefunded = amountRefunded
            self.full = full
            self.currency = currency
        }
    }

    /// A dispute (chargeback) opened or closed.
    public struct Dispute: Sendable, Hashable, Codable {
        /// `dp_…`.
        public var disputeID: String
        public var chargeID: String?
        public var paymentIntentID: String?
        public var amount: Int64
        public var currency: String?
        /// `needs_response`, `under_review`, `won`, `lost`, `warning_closed`, …
        public var status: String
        /// `charge.dispute.closed`.
        public var closed: Bool

        enum CodingKeys: String, CodingKey {
            case amount, currency, status, closed
            case disputeID = "dispute_id", chargeID = "charge_id", paymentIntentID = "payment_intent_id"
        }

        public init(disputeID: String, chargeID: String?, paymentIntentID: String?, amount: Int64, currency: String?,
                    status: String, closed: Bool) {
            self.disputeID = disputeID
            self.chargeID = chargeID
            self.paymentIntentID = paymentIntentID
            self.amount = amount
            self.currency = currency
            self.status = status
            self.closed = closed
        }
    }
}
