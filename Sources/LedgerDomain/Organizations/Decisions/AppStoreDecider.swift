import LedgerJSON

/// Decides what Apple's signed payloads change (T, N): the organization's plan through its
/// App Store subscription. Pure: the payload was verified by the AppStore module, the
/// organization read from the organizations projection.
public enum AppStoreDecider {
    /// T1–T7: a StoreKit 2 transaction an administrator records for the organization, with
    /// the education grant it makes (O8) in the same append, so that a refusal appends
    /// nothing at all. `known`: what the subscription's stream in the log already holds.
    /// A transaction already recorded changes nothing (T5: the checks that guard a new
    /// purchase do not apply), but what its buyer's post adds is recorded: when the
    /// subscription has no holder yet (a notification recorded it first), the reader
    /// becomes its holder (`appstore.subscription_claimed`), once; otherwise the decision
    /// is empty.
    public static func recordTransaction(_ t: AppStoreTransactionFacts, org: OrganizationSnapshot, reader: AppStoreReader,
                                         known: AppStoreSubscriptionLog, products: AppStoreProducts, domains: SchoolDomains,
                                         now: Timestamp) throws(Refusal) -> Decision {
        guard let role = reader.role(in: org) else { throw Refusal(.notFound, "no organization \(org.id) for this session") }
        guard role == .administrator else {
            throw Refusal(.forbidden, "only a designated administrator of the organization records its purchases (T2)")
        }
        guard let plan = products.plan(ofProduct: t.productID) else {
            throw Refusal(.appStoreTransactionInvalid, "product \(ExternalID.text(t.productID)) is not a plan of this app")
        }
        guard let token = org.accountToken, t.appAccountToken == token else {     // T3: compared as UUIDs
            throw Refusal(.appStoreAccountMismatch, "the transaction's appAccountToken is not this organization's account token")
        }
        // T5: a transaction already recorded (sent again, re-signed by StoreKit, or its refunded
        // copy) changes nothing: Apple's notifications carry what happened to it since. What
        // the app's post adds is who bought it, when nobody is recorded yet (O10).
        if known.contains(transaction: ExternalID.value(t.transactionID)) {
            guard known.holder == nil else { return Decision([]) }
            let original = ExternalID.value(t.originalTransactionID)
            let claimed = AppStoreSubscriptionClaimed(orgID: org.id, originalTransactionID: original,
                                                      transactionID: ExternalID.value(t.transactionID), personID: reader.personID)
            return Decision(PendingEvent(claimed, on: t.stream, occurredAt: now,
                                         idempotencyKey: AppStoreSubscriptionClaimed.idempotencyKey(originalTransactionID: original)))
        }
        let expired = t.expiresDate.map { $0 <= now } ?? false
        // A revoked or expired transaction is recorded as the fact it is and changes no plan
        // (T5): the checks that guard a purchase do not apply to it.
        let changesPlan = t.revocationDate == nil && !expired
        var education: EducationEligibility?
        if changesPlan {
            guard org.resellerID == nil else {
                throw Refusal(.billedByReseller, "the organization is delegated to a reseller, which pays its plan")
            }
            let eligibility = EducationEligibility(org, reader: reader, role: role, domains: domains)
            education = eligibility
            if plan == .education && !eligibility.eligible {
                throw Refusal(.educationNotEligible, "the organization is not eligible for the education plan")
            }
            // O10: a plan held through another source (staff, billing, another subscription) at
            // the same or a higher level blocks a purchase. The holder of this subscription may
            // change plan within it, so its own plan does not block them; the other sources still do.
            let original = ExternalID.value(t.originalTransactionID)
            let subscription = org.plans.subscriptions.first { $0.originalTransactionID == original }
            let isHolder = subscription.map { $0.holder == nil || $0.holder == reader.personID } ?? false
            let blocking = org.plans.held(at: now, excluding: isHolder ? [original] : [])
                .filter { $0.0.level >= plan.level }.max { $0.0.level < $1.0.level }
            if let (held, source) = blocking {
                let through = switch source {
                case .appStore: "another App Store subscription"
                case .staff: "a staff grant"
                case .billing: "web billing"
                }
                throw Refusal(.appStorePlanConflict,
                              "the organization already holds \(held.rawValue) (at this level or higher) through \(through)")
            }
        }
        var events: [PendingEvent] = []
        if let grant = education?.grant { events.append(grant) }
        events.append(PendingEvent(recorded(t, orgID: org.id, plan: plan, personID: reader.personID, via: "storekit", expired: expired),
                                   on: t.stream, occurredAt: t.signedDate, idempotencyKey: t.idempotencyKey))
        return Decision(events)
    }

    /// N3: types that apply the latest transaction.
    public static let applying: Set<String> = ["SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS",
                                               "OFFER_REDEEMED", "RENEWAL_EXTENDED", "REFUND_REVERSED"]
    /// N4: types that end the subscription.
    public static let ending: Set<String> = ["EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE"]
    /// Apple could not renew: billing retry, or a grace period with the subtype `GRACE_PERIOD`.
    public static let failedRenewal = "DID_FAIL_TO_RENEW"
    /// Apple told the subscriber of a price increase: `PENDING` or `ACCEPTED`.
    public static let priceIncrease = "PRICE_INCREASE"
    /// Apple extended renewal dates for many subscribers: a `SUMMARY` of the request, or a
    /// `FAILURE` for one subscription.
    public static let renewalExtension = "RENEWAL_EXTENSION"

    /// A verified notification, as the rules need it.
    public struct Notification: Sendable, Hashable {
        public var notificationUUID: String
        public var type: String
        public var subtype: String?
        public var signedDate: Timestamp
        public var environment: String
        public var transaction: AppStoreTransactionFacts?
        /// The signed renewal info's `gracePeriodExpiresDate`, when it has one.
        public var gracePeriodExpires: Timestamp?
        /// The signed renewal info's `priceIncreaseStatus` (0 not answered, 1 accepted).
        public var priceIncreaseStatus: Int?
        /// The signed renewal info's `renewalPrice` (milliunits of `currency`) and `currency`.
        public var renewalPrice: Int64?
        public var currency: String?
        /// A `RENEWAL_EXTENSION` `SUMMARY`'s `summary`.
        public var summary: AppStoreRenewalExtensionSummary?
        /// The app it came from (`bundleId`): a refund request is answered with that app's key.
        public var bundleID: String?

        public init(notificationUUID: String, type: String, subtype: String?, signedDate: Timestamp, environment: String,
                    transaction: AppStoreTransactionFacts?, gracePeriodExpires: Timestamp? = nil, priceIncreaseStatus: Int? = nil,
                    renewalPrice: Int64? = nil, currency: String? = nil, summary: AppStoreRenewalExtensionSummary? = nil,
                    bundleID: String? = nil) {
            self.bundleID = bundleID
            self.priceIncreaseStatus = priceIncreaseStatus
            self.renewalPrice = renewalPrice
            self.currency = currency
            self.summary = summary
            self.notificationUUID = notificationUUID
            self.type = type
            self.subtype = subtype
            self.signedDate = signedDate
            self.environment = environment
            self.transaction = transaction
            self.gracePeriodExpires = gracePeriodExpires
        }

        /// Deduplicated on its UUID (N decision): a second delivery appends nothing.
        public var idempotencyKey: String { "apple-notification:" + ExternalID.key(notificationUUID) }
    }

    /// What a notification changes, and how the answer names it (`applied`, `refunded`,
    /// `ignored: …`).
    public struct NotificationOutcome: Sendable, Hashable {
        public var decision: Decision
        public var outcome: String { decision.events.first.map { AppStoreDecider.outcome(type: $0.type, data: $0.data) } ?? "ignored" }
    }

    /// How the answer names what a notification's event records: `applied` (a
    /// transaction), how an end ended it (`expired`, `refunded`, `revoked`), `grace_period`
    /// or `billing_retry` (a failed renewal), `price_increase_pending` or
    /// `price_increase_accepted`, `renewal_extension_failed`, `consumption_requested`, or `ignored: <reason>`
    /// (acknowledged only).
    public static func outcome(type: String, data: JSONValue) -> String {
        switch type {
        case AppStoreNotificationAcknowledged.type: return "ignored: " + (data["reason"]?.stringValue ?? "")
        case AppStoreSubscriptionEnded.type: return SubscriptionFact.Ending(reason: data["reason"]?.stringValue ?? "").rawValue
        case AppStorePriceIncreaseReported.type: return "price_increase_" + (data["status"]?.stringValue ?? "")
        case AppStoreRenewalExtensionFailed.type: return "renewal_extension_failed"
        case AppStoreConsumptionRequested.type: return "consumption_requested"
        case AppStoreRenewalFailed.type:
            if let grace = data["grace_period_expires_date"], grace != .null { return "grace_period" }
            return "billing_retry"
        default: return "applied"
        }
    }

    /// N1–N8: `orgID` is the organization whose account token the transaction names, if
    /// any. A notification sent to the URL of another environment is refused (N7, 422).
    public static func notification(_ n: Notification, receivedAt path: String, orgID: String?,
                                    products: AppStoreProducts) throws(Refusal) -> NotificationOutcome {
        let expected: Set<String> = path == "production" ? ["Production"] : ["Sandbox", "Xcode"]
        guard expected.contains(n.environment) else {
            throw Refusal(.appStoreTransactionInvalid, "a \(ExternalID.text(n.environment)) notification sent to the \(path) URL")
        }
        func acknowledged(_ reason: String) -> NotificationOutcome {
            let e = AppStoreNotificationAcknowledged(notificationUUID: ExternalID.value(n.notificationUUID), notificationType: ExternalID.text(n.type),
                                                     subtype: n.subtype.map(ExternalID.text), reason: ExternalID.text(reason),
                                                     environment: n.environment)
            return NotificationOutcome(decision: Decision(PendingEvent(e, on: "appstore-notifications", occurredAt: n.signedDate),
                                                          idempotencyKey: n.idempotencyKey))
        }
        // A summary of a request to extend many renewal dates names no subscription: what it
        // says is the acknowledgement.
        if n.type == renewalExtension, let summary = n.summary { return acknowledged(summary.description) }
        // A refund request is recorded whatever the product and whoever holds it: Apple asks
        // the developer, and the ledger answers it (docs/appstore.md, "Refund requests").
        if n.type == consumptionRequest, let t = n.transaction { return consumptionRequested(n, t, orgID: orgID) }
        guard applying.contains(n.type) || ending.contains(n.type) || [failedRenewal, priceIncrease, renewalExtension].contains(n.type) else {
            return acknowledged("type \(n.type) changes no plan")
        }
        guard let t = n.transaction else {
            return acknowledged(n.type == renewalExtension ? "renewal date extension \(n.subtype ?? "") names no subscription"
                                                           : "no signed transaction")
        }
        guard let plan = products.plan(ofProduct: t.productID) else { return acknowledged("product \(t.productID) is not a plan") }
        guard let orgID else { return acknowledged("names no organization") }
        let original = ExternalID.value(t.originalTransactionID)
        let uuid = ExternalID.value(n.notificationUUID)
        func on(_ stream: String, _ e: some DomainEvent) -> NotificationOutcome {
            NotificationOutcome(decision: Decision(PendingEvent(e, on: stream, occurredAt: n.signedDate), idempotencyKey: n.idempotencyKey))
        }
        if n.type == priceIncrease {
            // Where it stands is what Apple signed: the subtype, else the renewal info's status.
            guard let status = PriceIncreaseStatus(subtype: n.subtype, renewalInfoStatus: n.priceIncreaseStatus) else {
                return acknowledged("price increase without a status (subtype \(n.subtype ?? "none"), no priceIncreaseStatus)")
            }
            return on(t.stream, AppStorePriceIncreaseReported(orgID: orgID, originalTransactionID: original, status: status,
                                                              renewalPrice: n.renewalPrice, currency: n.currency.map(ExternalID.text),
                                                              signedDate: n.signedDate, notificationUUID: uuid))
        }
        if n.type == renewalExtension {
            guard n.subtype == "FAILURE" else { return acknowledged("renewal date extension \(n.subtype ?? "") without a summary") }
            return on(t.stream, AppStoreRenewalExtensionFailed(orgID: orgID, originalTransactionID: original, signedDate: n.signedDate,
                                                               notificationUUID: uuid))
        }
        if n.type == failedRenewal {
            // A grace period only when Apple says so (the subtype) and says until when: the
            // date comes from the signed renewal info, never from a guess of ours.
            let grace = n.subtype == "GRACE_PERIOD" ? n.gracePeriodExpires : nil
            let e = AppStoreRenewalFailed(orgID: orgID, originalTransactionID: ExternalID.value(t.originalTransactionID),
                                          gracePeriodExpiresDate: grace, signedDate: n.signedDate,
                                          notificationUUID: ExternalID.value(n.notificationUUID))
            return NotificationOutcome(decision: Decision(PendingEvent(e, on: t.stream, occurredAt: n.signedDate),
                                                          idempotencyKey: n.idempotencyKey))
        }
        if ending.contains(n.type) {
            let e = AppStoreSubscriptionEnded(orgID: orgID, originalTransactionID: ExternalID.value(t.originalTransactionID),
                                              reason: n.type, signedDate: n.signedDate, notificationUUID: ExternalID.value(n.notificationUUID))
            return NotificationOutcome(decision: Decision(PendingEvent(e, on: t.stream, occurredAt: n.signedDate),
                                                          idempotencyKey: n.idempotencyKey))
        }
        let e = recorded(t, orgID: orgID, plan: plan, personID: nil, via: n.type, expired: false)
        return NotificationOutcome(decision: Decision(PendingEvent(e, on: t.stream, occurredAt: t.signedDate),
                                                      idempotencyKey: n.idempotencyKey))
    }

    static func recorded(_ t: AppStoreTransactionFacts, orgID: String, plan: Plan, personID: String?, via: String,
                         expired: Bool) -> AppStoreTransactionRecorded {
        AppStoreTransactionRecorded(
            orgID: orgID, originalTransactionID: ExternalID.value(t.originalTransactionID), transactionID: ExternalID.value(t.transactionID),
            productID: t.productID, plan: plan, purchaseDate: t.purchaseDate, expiresDate: t.expiresDate,
            revocationDate: t.revocationDate, signedDate: t.signedDate, environment: t.environment, personID: personID, via: via,
            expiredWhenRecorded: expired, inAppOwnershipType: t.inAppOwnershipType.map(ExternalID.text), offerType: t.offerType,
            offerIdentifier: t.offerIdentifier.map(ExternalID.text), offerDiscountType: t.offerDiscountType.map(ExternalID.text))
    }
}
