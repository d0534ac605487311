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
        /// How it ended, when a notification (N4) or the revocation of its latest
        /// transaction ended it and nothing renewed it since: `expired` (EXPIRED,
        /// GRACE_PERIOD_EXPIRED), `refunded` (REFUND, a revoked purchase) or `revoked`
        /// (REVOKE, a revoked Family Sharing transaction).
        public private(set) var ending: SubscriptionFact.Ending?
        /// The latest price increase Apple told the subscriber of (`PRICE_INCREASE`).
        public private(set) var priceIncrease: PriceIncrease?
        /// The latest word on its renewal date being extended: `RENEWAL_EXTENDED` (its
        /// transaction, with the new expiry) or a `RENEWAL_EXTENSION` `FAILURE`.
        public private(set) var renewalExtension: RenewalExtension?
        /// Apple could not renew it, and has not renewed it since (`DID_FAIL_TO_RENEW`):
        /// `graceUntil` when the subscriber keeps the plan in a grace period; nil in billing
        /// retry.
        public private(set) var billingIssue: BillingIssue?

        /// A price increase and where it stands, as Apple signed it at `signed`.
        public struct PriceIncrease: Sendable, Hashable {
            public var status: PriceIncreaseStatus
            public var signed: Timestamp
            public init(status: PriceIncreaseStatus, signed: Timestamp) {
                self.status = status
                self.signed = signed
            }
        }

        /// Apple extended the renewal date (`extended`: the latest transaction carries the
        /// new expiry), or could not (`failed`), at `signed`.
        public struct RenewalExtension: Sendable, Hashable {
            public enum Outcome: String, Sendable { case extended, failed }
            public var outcome: Outcome
            public var signed: Timestamp
            public init(outcome: Outcome, signed: Timestamp) {
                self.outcome = outcome
                self.signed = signed
            }
        }

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
            /// Who holds the plan: its buyer, or a family member through Family Sharing; nil
            /// when the transaction was recorded before this was kept.
            public var ownership: AppStoreOwnership?
            /// The offer it was bought with, if any.
            public var offer: AppStoreOfferAttribution?
        }

        public init(originalTransactionID: String, holder: String?, facts: [SubscriptionFact]) {
            self.originalTransactionID = originalTransactionID
            self.holder = holder
            var setsPlan = false
            for fact in facts.sorted(by: { ($0.signed, $0.position) < ($1.signed, $1.position) }) {
                switch fact.kind {
                case .end(let how):
                    if setsPlan { decided.append(PlanTimeline.Change(at: fact.signed, order: fact.position, plan: nil)) }
                    setsPlan = false
                    ending = how
                    billingIssue = nil
                case .renewalFailed(let graceUntil):
                    // Only a live subscription can fail to renew; after an end it changes nothing.
                    if ending == nil && latest != nil { billingIssue = BillingIssue(signed: fact.signed, graceUntil: graceUntil) }
                case .priceIncrease(let status):
                    priceIncrease = PriceIncrease(status: status, signed: fact.signed)
                case .renewalExtensionFailed:
                    renewalExtension = RenewalExtension(outcome: .failed, signed: fact.signed)
                case .transaction(let t):
                    // The same transaction signed again has the same purchase date: it is the latest still.
                    if let latest, t.purchase < latest.purchase { continue }
                    let again = latest?.transactionID == t.transactionID
                    latest = Latest(productID: t.productID, plan: t.plan, transactionID: t.transactionID, purchase: t.purchase,
                                    expires: t.expires, ownership: t.ownership, offer: t.offer)
                    if t.via == Self.renewalExtended { renewalExtension = RenewalExtension(outcome: .extended, signed: fact.signed) }
                    // A transaction purchased after the failure is the renewal that recovers it
                    // (`DID_RENEW`, `BILLING_RECOVERY`); the same one signed again is not.
                    if !again, let issue = billingIssue, t.purchase >= issue.signed || t.expires.map({ $0 > issue.signed }) == true {
                        billingIssue = nil
                    }
                    if t.revoked != nil {
                        // A revoked transaction never makes the subscription active: it ends it, as REFUND
                        // does, or as REVOKE does when Family Sharing shared it.
                        if setsPlan { decided.append(PlanTimeline.Change(at: fact.signed, order: fact.position, plan: nil)) }
                        setsPlan = false
                        ending = t.ownership == .familyShared ? .revoked : .refunded
                        billingIssue = nil
                        continue
                    }
                    if t.expiredWhenRecorded { continue }   // T5: recorded, and changes no plan
                    if again && setsPlan { continue }        // T5: signed again, it changes nothing
                    // After an end, Apple reinstating it (REFUND_REVERSED, a resubscription) applies from
                    // when Apple said so, and no change ever applies before the one it follows: no
                    // plan is granted for the past, none taken back.
                    let after = decided.last?.at ?? .minimum
                    let at = ending != nil ? max(t.purchase, fact.signed, after) : max(t.purchase, after)
                    decided.append(PlanTimeline.Change(at: at, order: fact.position, plan: t.plan))
                    setsPlan = true
                    ending = nil
                }
            }
            if setsPlan, let expires = latest?.expires {
                // In a grace period the plan is kept until Apple's grace period ends.
                let until = max(expires, billingIssue?.graceUntil ?? expires)
                lapse = PlanTimeline.Change(at: max(until, decided.last?.at ?? until), order: .max, plan: nil)
            }
        }

        /// `RENEWAL_EXTENDED`: the notification type a transaction recorded from it names (`via`).
        static let renewalExtended = "RENEWAL_EXTENDED"

        /// O12 (docs/appstore.md, "Lifecycle"): how it ended when an end ended it (`expired`,
        /// `refunded`, `revoked`); after a failed renewal `in_grace_period` until Apple's
        /// grace period ends, then `in_billing_retry` until a renewal or an end; `expired`
        /// when its latest transaction's `expiresDate` has passed, or it has none; else `active`.
        public func status(at instant: Timestamp) -> SubscriptionStatus {
            if let ending { return ending.status }
            if let issue = billingIssue {
                if let grace = issue.graceUntil, instant < grace { return .inGracePeriod }
                return .inBillingRetry
            }
            if let expires = latest?.expires, expires <= instant { return .expired }
            return latest == nil ? .expired : .active
        }
    }
}

/// An App Store subscription's status, as the offer and the webhooks show it.
public enum SubscriptionStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Within its period, or renewed.
    case active
    /// Apple said so (`EXPIRED`, `GRACE_PERIOD_EXPIRED`), or its period passed without a renewal.
    case expired
    /// Apple refunded it (`REFUND`, or a revoked transaction that was purchased).
    case refunded
    /// Family Sharing access was revoked (`REVOKE`, or a revoked shared transaction).
    case revoked
    /// Apple could not renew it, and the subscriber keeps the plan until the grace period ends.
    case inGracePeriod = "in_grace_period"
    /// Apple could not renew it and is retrying the payment: the plan lapsed at its expiry.
    case inBillingRetry = "in_billing_retry"
}

/// One fact about an App Store subscription, as recorded in the log.
public struct SubscriptionFact: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case transaction(Transaction)
        /// EXPIRED, GRACE_PERIOD_EXPIRED, REFUND or REVOKE (N4), and how it ended.
        case end(Ending)
        /// DID_FAIL_TO_RENEW: in a grace period until `graceUntil`, or in billing retry (nil).
        case renewalFailed(graceUntil: Timestamp?)
        /// PRICE_INCREASE: changes no plan.
        case priceIncrease(PriceIncreaseStatus)
        /// RENEWAL_EXTENSION with the subtype FAILURE: changes no plan.
        case renewalExtensionFailed
    }

    /// How an end ended a subscription (N4), from the notification type it recorded.
    public enum Ending: String, Sendable, Hashable, CaseIterable {
        /// `EXPIRED`, `GRACE_PERIOD_EXPIRED`.
        case expired
        /// `REFUND`.
        case refunded
        /// `REVOKE`: Family Sharing access withdrawn.
        case revoked

        /// From `appstore.subscription_ended`'s `reason` (the notification type). The decider
        /// records only the four types of N4; any other word reads as an expiry, the end
        /// that takes the least for granted.
        public init(reason: String) {
            switch reason {
            case "REFUND": self = .refunded
            case "REVOKE": self = .revoked
            default: self = .expired
            }
        }

        public var status: SubscriptionStatus {
            switch self {
            case .expired: .expired
            case .refunded: .refunded
            case .revoked: .revoked
            }
        }
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
        /// `inAppOwnershipType`, when recorded.
        public var ownership: AppStoreOwnership?
        /// The offer it was bought with.
        public var offer: AppStoreOfferAttribution?
        /// `storekit` or the notification type that carried it (`RENEWAL_EXTENDED` extends
        /// the renewal date); nil when not known.
        public var via: String?

        public init(transactionID: String, productID: String, plan: Plan, purchase: Timestamp, expires: Timestamp?,
                    revoked: Timestamp?, expiredWhenRecorded: Bool, ownership: AppStoreOwnership? = nil,
                    offer: AppStoreOfferAttribution? = nil, via: String? = nil) {
            self.ownership = ownership
            self.offer = offer
            self.via = via
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
