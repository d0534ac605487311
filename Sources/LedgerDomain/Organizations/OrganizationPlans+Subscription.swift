extension OrganizationPlans {
    /// One App Store subscription: the facts Apple signed about it, and what they make of
    /// it. Its plan over time, its latest transaction and its status all come from one
    /// ordering of those facts, Apple's `signedDate` (then the log position), whatever
    /// order they were delivered in (N3, N4, T4, T5, O12).
    public struct Subscription: Sendable {
        public var originalTransactionID: String
        /// Who recorded its first transaction through the app (O10's "person whose
        /// subscription holds it"); nil when it only came through notifications.
        public var holder: String?
        /// The plan changes its facts make, for `PlanTimeline`, ending with its lapse.
        public var changes: [PlanTimeline.Change] { lapse.map { decided + [$0] } ?? decided }
        /// What Apple's facts decided.
        public private(set) var decided: [PlanTimeline.Change] = []
        /// The removal at its latest transaction's expiry, should no renewal come: a
        /// subscription that is not renewed lapses as EXPIRED would end it.
        public private(set) var lapse: PlanTimeline.Change?
        /// Its latest transaction by purchase date (T4: an older one changes nothing).
        public private(set) var latest: Latest?
        /// Ended by a notification (N4) or by the revocation of its latest transaction,
        /// and not renewed since.
        public private(set) var ended = false
        /// Apple could not renew it, and has not renewed it since (`DID_FAIL_TO_RENEW`):
        /// `graceUntil` when the subscriber keeps the plan in a grace period; nil in billing
        /// retry.
        public private(set) var billingIssue: BillingIssue?

        /// A failed renewal not yet recovered.
        public struct BillingIssue: Sendable, Equatable {
            public var signed: Timestamp
            public var graceUntil: Timestamp?
        }

        /// The subscription's latest transaction.
        public struct Latest: Sendable, Equatable {
            public var productID: String
            public var plan: Plan
            public var transactionID: String
            public var purchase: Timestamp
            public var expires: Timestamp?
        }

        public init(originalTransactionID: String, holder: String?, facts: [SubscriptionFact]) {
            self.originalTransactionID = originalTransactionID
            self.holder = holder
            var setsPlan = false
            for fact in facts.sorted(by: { ($0.signed, $0.position) < ($1.signed, $1.position) }) {
                switch fact.kind {
                case .end:
                    if setsPlan { decided.append(PlanTimeline.Change(at: fact.signed, order: fact.position, plan: nil)) }
                    setsPlan = false
                    ended = true
                    billingIssue = nil
                case .renewalFailed(let graceUntil):
                    // Only a live subscription can fail to renew; after an end it changes nothing.
                    if !ended && latest != nil { billingIssue = BillingIssue(signed: fact.signed, graceUntil: graceUntil) }
                case .transaction(let t):
                    // The same transaction signed again has the same purchase date: it is the latest still.
                    if let latest, t.purchase < latest.purchase { continue }
                    let again = latest?.transactionID == t.transactionID
                    latest = Latest(productID: t.productID, plan: t.plan, transactionID: t.transactionID, purchase: t.purchase,
                                    expires: t.expires)
                    // A transaction purchased after the failure is the renewal that recovers it
                    // (`DID_RENEW`, `BILLING_RECOVERY`); the same one signed again is not.
                    if !again, let issue = billingIssue, t.purchase >= issue.signed || t.expires.map({ $0 > issue.signed }) == true {
                        billingIssue = nil
                    }
                    if t.revoked != nil {
                        // A revoked transaction never makes the subscription active: it ends it, as REFUND does.
                        if setsPlan { decided.append(PlanTimeline.Change(at: fact.signed, order: fact.position, plan: nil)) }
                        setsPlan = false
                        ended = true
                        continue
                    }
                    if t.expiredWhenRecorded { continue }   // T5: recorded, and changes no plan
                    if again && setsPlan { continue }        // T5: signed again, it changes nothing
                    // After an end, Apple reinstating it (REFUND_REVERSED, a resubscription) applies from
                    // when Apple said so, and no change ever applies before the one it follows: no
                    // plan is granted for the past, none taken back.
                    let after = decided.last?.at ?? .minimum
                    let at = ended ? max(t.purchase, fact.signed, after) : max(t.purchase, after)
                    decided.append(PlanTimeline.Change(at: at, order: fact.position, plan: t.plan))
                    setsPlan = true
                    ended = false
                }
            }
            if setsPlan, let expires = latest?.expires {
                // In a grace period the plan is kept until Apple's grace period ends.
                let until = max(expires, billingIssue?.graceUntil ?? expires)
                lapse = PlanTimeline.Change(at: max(until, decided.last?.at ?? until), order: .max, plan: nil)
            }
        }

        /// O12: `ended` (N4, or its latest transaction was revoked); after a failed renewal
        /// `in_grace_period` until Apple's grace period ends, then `in_billing_retry` until
        /// a renewal or an end; `expired` (its latest transaction's `expiresDate` has
        /// passed); else `active`.
        public func status(at instant: Timestamp) -> SubscriptionStatus {
            if ended { return .ended }
            if let issue = billingIssue {
                if let grace = issue.graceUntil, instant < grace { return .inGracePeriod }
                return .inBillingRetry
            }
            if let expires = latest?.expires, expires <= instant { return .expired }
            return latest == nil ? .ended : .active
        }
    }
}

/// An App Store subscription's status, as the offer and the webhooks show it.
public enum SubscriptionStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case active, expired, ended
    /// Apple could not renew it, and the subscriber keeps the plan until the grace period ends.
    case inGracePeriod = "in_grace_period"
    /// Apple could not renew it and is retrying the payment: the plan lapsed at its expiry.
    case inBillingRetry = "in_billing_retry"
}

/// One fact about an App Store subscription, as recorded in the log.
public struct SubscriptionFact: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case transaction(Transaction)
        /// EXPIRED, GRACE_PERIOD_EXPIRED, REFUND or REVOKE (N4).
        case end
        /// DID_FAIL_TO_RENEW: in a grace period until `graceUntil`, or in billing retry (nil).
        case renewalFailed(graceUntil: Timestamp?)
    }

    public struct Transaction: Sendable, Hashable {
        public var transactionID: String
        public var productID: String
        public var plan: Plan
        public var purchase: Timestamp
        public var expires: Timestamp?
        public var revoked: Timestamp?
        /// Its `expiresDate` had passed when it was recorded (T5).
        public var expiredWhenRecorded: Bool

        public init(transactionID: String, productID: String, plan: Plan, purchase: Timestamp, expires: Timestamp?,
                    revoked: Timestamp?, expiredWhenRecorded: Bool) {
            self.transactionID = transactionID
            self.productID = productID
            self.plan = plan
            self.purchase = purchase
            self.expires = expires
            self.revoked = revoked
            self.expiredWhenRecorded = expiredWhenRecorded
        }
    }

    public var kind: Kind
    /// Apple's `signedDate`: the ordering of every fact of a subscription.
    public var signed: Timestamp
    /// Breaks ties between facts signed at the same instant.
    public var position: Int64

    public init(_ kind: Kind, signed: Timestamp, position: Int64) {
        self.kind = kind
        self.signed = signed
        self.position = position
    }
}
