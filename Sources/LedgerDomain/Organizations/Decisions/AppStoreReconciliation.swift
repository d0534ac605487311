/// Reconciliation of one App Store subscription with what Apple says of it now (Get All
/// Subscription Statuses): when Apple knows something the log does not (a renewal, a
/// failed renewal, an end, a refund), the events a notification would have recorded, so
/// that the plan is what it would be had every notification arrived (docs/appstore.md,
/// "Reconciliation"). Pure: Apple's answer was verified by the client, the subscription
/// read from the organizations projection.
public enum AppStoreReconciliation {
    /// What Apple says of one subscription: its `lastTransactionsItem`.
    public struct AppleStatus: Sendable, Hashable {
        /// Apple's `status`: 1 active, 2 expired, 3 in billing retry, 4 in the billing grace
        /// period, 5 revoked.
        public var status: Int
        /// The latest transaction, verified.
        public var transaction: AppStoreTransactionFacts
        /// When Apple signed the renewal info: the moment Apple said so, which the facts
        /// recorded from it are dated by.
        public var said: Timestamp
        /// The renewal info's `gracePeriodExpiresDate`.
        public var gracePeriodExpires: Timestamp?

        public init(status: Int, transaction: AppStoreTransactionFacts, said: Timestamp, gracePeriodExpires: Timestamp?) {
            self.status = status
            self.transaction = transaction
            self.said = said
            self.gracePeriodExpires = gracePeriodExpires
        }

        /// The subscription's status as Apple's number names it.
        public var subscriptionStatus: SubscriptionStatus? {
            switch status {
            case 1: .active
            case 2: .expired
            case 3: .inBillingRetry
            case 4: .inGracePeriod
            case 5: transaction.inAppOwnershipType == "FAMILY_SHARED" ? .revoked : .refunded
            default: nil
            }
        }
    }

    /// What reconciling one subscription changes.
    public struct Change: Sendable {
        public var originalTransactionID: String
        /// The ledger's status now (nil: the log does not hold the subscription).
        public var before: SubscriptionStatus?
        /// Apple's.
        public var after: SubscriptionStatus
        /// The plan the subscription gives now, and once the facts are recorded (an end
        /// removes it at the next start of a UTC month, N4).
        public var planBefore: Plan?
        public var planAfter: Plan?
        /// The facts to record, in order; empty when the ledger agrees with Apple.
        public var events: [PendingEvent]
        /// In words, for the operator.
        public var why: String
    }

    /// The events that bring the ledger's view of `subscription` (nil: not in the log) to
    /// Apple's, for organization `orgID`; `products` says which plan a product is.
    /// Re-running it after they are recorded gives none: each carries a key made of what
    /// Apple said and when.
    public static func reconcile(_ subscription: OrganizationPlans.Subscription?, apple: AppleStatus, orgID: String,
                                 products: AppStoreProducts, now: Timestamp) -> Change? {
        guard let target = apple.subscriptionStatus, let plan = products.plan(ofProduct: apple.transaction.productID) else { return nil }
        let t = apple.transaction
        let original = ExternalID.value(t.originalTransactionID)
        let before = subscription?.status(at: now)
        let planBefore = subscription.flatMap { s in [.active, .inGracePeriod].contains(s.status(at: now)) ? s.latest?.plan : nil }
        var events: [PendingEvent] = []
        var reasons: [String] = []
        var status = before

        // A transaction Apple has and the log does not: the renewal (or the refund of one)
        // a notification would have recorded.
        let latest = subscription?.latest
        if latest?.transactionID != ExternalID.value(t.transactionID), latest.map({ t.purchaseDate >= $0.purchase }) ?? true {
            let expired = t.expiresDate.map { $0 <= now } ?? false
            events.append(PendingEvent(AppStoreDecider.recorded(t, orgID: orgID, plan: plan, personID: nil, via: via, expired: expired),
                                       on: t.stream, occurredAt: t.signedDate, idempotencyKey: t.idempotencyKey))
            reasons.append("transaction \(ExternalID.text(t.transactionID)) (\(plan.rawValue)) is not in the log")
            status = t.revocationDate != nil ? (t.inAppOwnershipType == "FAMILY_SHARED" ? .revoked : .refunded)
                : expired ? .expired : .active
        }

        if status != target {
            let key = { (what: String) in "appstore-reconcile:" + ExternalID.key("\(original):\(what):\(apple.said.microseconds)") }
            let id = "reconcile:\(original):\(apple.said.microseconds)"
            switch target {
            case .active:
                // Reinstated without a new transaction (a refund reversed): the transaction again.
                events.append(PendingEvent(AppStoreDecider.recorded(t, orgID: orgID, plan: plan, personID: nil, via: via, expired: false),
                                           on: t.stream, occurredAt: apple.said, idempotencyKey: key("active")))
            case .inBillingRetry, .inGracePeriod:
                let grace = target == .inGracePeriod ? apple.gracePeriodExpires : nil
                events.append(PendingEvent(AppStoreRenewalFailed(orgID: orgID, originalTransactionID: original, gracePeriodExpiresDate: grace,
                                                                 signedDate: apple.said, notificationUUID: id),
                                           on: t.stream, occurredAt: apple.said, idempotencyKey: key(target.rawValue)))
            case .expired, .refunded, .revoked:
                let reason = switch target {
                case .refunded: "REFUND"
                case .revoked: "REVOKE"
                default: before == .inGracePeriod ? "GRACE_PERIOD_EXPIRED" : "EXPIRED"
                }
                events.append(PendingEvent(AppStoreSubscriptionEnded(orgID: orgID, originalTransactionID: original, reason: reason,
                                                                     signedDate: apple.said, notificationUUID: id),
                                           on: t.stream, occurredAt: apple.said, idempotencyKey: key(target.rawValue)))
            }
            reasons.append("Apple says \(target.rawValue), the log \(status?.rawValue ?? "nothing")")
        }
        let planAfter: Plan? = [.active, .inGracePeriod].contains(target) ? plan : nil
        return Change(originalTransactionID: original, before: before, after: target, planBefore: planBefore, planAfter: planAfter,
                      events: events, why: events.isEmpty ? "the log agrees with Apple" : reasons.joined(separator: "; "))
    }

    /// The `via` of a transaction recorded by reconciliation.
    public static let via = "reconcile"
}
