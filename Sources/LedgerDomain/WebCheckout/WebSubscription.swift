/// One web subscription as the payment processor's facts tell it, whatever order they
/// arrived in: the fold `WebHoldings.fold` builds it from every fact linked to it.
public struct WebSubscription: Sendable, Hashable {
    /// The ledger's reading of Stripe's status, with what the other facts add.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// In its trial (`trialing`).
        case trialing
        /// Paid and running (`active`).
        case active
        /// A renewal's payment failed and Stripe is retrying it (`past_due`): access is kept
        /// until Stripe gives up (decision: as Apple's grace period).
        case pastDue = "past_due"
        /// Stripe gave up retrying and left it open but unpaid (`unpaid`): no access.
        case unpaid
        /// Paused (`paused`): no access.
        case paused
        /// Its first payment never completed (`incomplete`, `incomplete_expired`): it never
        /// started.
        case incomplete
        /// Ended (`canceled`, or deleted).
        case ended
        /// Its charge was refunded in full: access ends when the refund is recorded.
        case refunded
        /// A dispute of its charge was lost: access ends when it closed.
        case disputeLost = "dispute_lost"
    }

    /// What an authorization hold securing the trial (`auth_hold`) became.
    public enum Hold: String, Sendable, Hashable, Codable {
        /// The amount is capturable (`requires_capture`).
        case placed
        /// Captured on conversion.
        case captured
        /// Released (canceled) by the app or the customer.
        case released
        /// The card's authorization expired before it was captured (`automatic`).
        case expired
    }

    /// `sub_…`.
    public var subscriptionID: String
    public var userID: String?
    public var customerID: String?
    public var productID: String?
    public var status: Status
    /// Stripe's own status, as the latest subscription fact said it.
    public var stripeStatus: String
    public var createdAt: Timestamp
    /// When access ends (or ended): the trial's or the period's end, or when it ended.
    public var accessEndsAt: Timestamp?
    public var willRenew: Bool
    /// Set to end at the period's end (`cancel_at_period_end`).
    public var cancelAtPeriodEnd: Bool
    /// Whether it began with a trial, and when that trial ends.
    public var trialEnd: Timestamp?
    /// What the trial's first invoice charged upfront (a `paid` trial), in the currency's
    /// smallest unit; nil when nothing was charged.
    public var upfrontPaid: Int64?
    public var hold: Hold?
    /// A renewal payment failed and was not paid since.
    public var paymentFailed: Bool
    /// An open dispute of one of its charges.
    public var disputed: Bool
    /// When a full refund or a lost dispute took access away.
    public var revokedAt: Timestamp?

    /// Whether the user holds it at `now`.
    public func isHeld(at now: Timestamp) -> Bool {
        guard revokedAt.map({ $0 > now }) ?? true else { return false }
        switch status {
        case .trialing, .active, .pastDue: return accessEndsAt.map { $0 > now } ?? false
        case .unpaid, .paused, .incomplete, .ended, .refunded, .disputeLost: return false
        }
    }

    /// Whether it is in its trial at `now`.
    public func inTrial(at now: Timestamp) -> Bool {
        status == .trialing && (trialEnd.map { $0 > now } ?? false)
    }
}

/// A one-time web purchase (a Checkout Session in `payment` mode) as the facts tell it.
public struct WebPayment: Sendable, Hashable {
    /// `cs_…`.
    public var sessionID: String
    public var userID: String?
    public var productID: String?
    public var paymentIntentID: String?
    public var purchasedAt: Timestamp
    public var paid: Bool
    public var disputed: Bool
    /// When a full refund or a lost dispute took it away.
    public var revokedAt: Timestamp?

    public func isHeld(at now: Timestamp) -> Bool {
        paid && (revokedAt.map { $0 > now } ?? true)
    }
}
