/// `appstore.transaction_recorded`, on `appstore-sub-<originalTransactionId>`: a verified
/// StoreKit 2 transaction of an organization's subscription (T1, N3), recorded once per
/// `transactionId` (its idempotency key is `appstore-tx:<transactionId>`). `occurred_at` is
/// Apple's `signedDate`; the plan is the one its product stood for when recorded.
public struct AppStoreTransactionRecorded: DomainEvent {
    public static let type = "appstore.transaction_recorded"
    public var orgID: String
    public var originalTransactionID: String
    public var transactionID: String
    public var productID: String
    public var plan: Plan
    public var purchaseDate: Timestamp
    public var expiresDate: Timestamp?
    public var revocationDate: Timestamp?
    public var signedDate: Timestamp
    public var environment: String
    /// The administrator who sent it (T), nil when it came in a notification (N).
    public var personID: String?
    /// `storekit` (T) or the notification type (N).
    public var via: String
    /// The transaction had already expired (its `expiresDate` was past) when it was
    /// recorded: it is kept as a fact and changes no plan (T5).
    public var expiredWhenRecorded: Bool
    /// Apple's `inAppOwnershipType` (`PURCHASED`, `FAMILY_SHARED`): who holds the plan.
    /// Nil in events recorded before it was kept.
    public var inAppOwnershipType: String?
    /// Apple's `offerType` (1 introductory, 2 promotional, 3 offer code, 4 win-back), nil
    /// when bought without an offer (or recorded before it was kept).
    public var offerType: Int?
    /// Apple's `offerIdentifier`: the promotional offer's or offer code's name.
    public var offerIdentifier: String?
    /// Apple's `offerDiscountType` (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`).
    public var offerDiscountType: String?

    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id", transactionID = "transaction_id"
        case productID = "product_id", plan, purchaseDate = "purchase_date", expiresDate = "expires_date"
        case revocationDate = "revocation_date", signedDate = "signed_date", environment, personID = "person_id", via
        case expiredWhenRecorded = "expired_when_recorded", inAppOwnershipType = "in_app_ownership_type"
        case offerType = "offer_type", offerIdentifier = "offer_identifier", offerDiscountType = "offer_discount_type"
    }

    public init(orgID: String, originalTransactionID: String, transactionID: String, productID: String, plan: Plan,
                purchaseDate: Timestamp, expiresDate: Timestamp?, revocationDate: Timestamp?, signedDate: Timestamp,
                environment: String, personID: String?, via: String, expiredWhenRecorded: Bool,
                inAppOwnershipType: String? = nil, offerType: Int? = nil, offerIdentifier: String? = nil,
                offerDiscountType: String? = nil) {
        self.inAppOwnershipType = inAppOwnershipType
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.plan = plan
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.signedDate = signedDate
        self.environment = environment
        self.personID = personID
        self.via = via
        self.expiredWhenRecorded = expiredWhenRecorded
    }
}

/// `appstore.subscription_ended`, on `appstore-sub-<originalTransactionId>` (N4): the plan
/// the subscription set is removed at the next start of a UTC month after `signed_date`.
/// How it ended (`ending`: expired, refunded, revoked) is read from `reason`, so that
/// every event of this type ever recorded folds to the status Apple meant.
public struct AppStoreSubscriptionEnded: DomainEvent {
    public static let type = "appstore.subscription_ended"
    public var orgID: String
    public var originalTransactionID: String
    /// The notification type: EXPIRED, GRACE_PERIOD_EXPIRED, REFUND or REVOKE.
    public var reason: String
    /// How the subscription ended, from `reason`.
    public var ending: SubscriptionFact.Ending { SubscriptionFact.Ending(reason: reason) }
    public var signedDate: Timestamp
    public var notificationUUID: String
    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id", reason
        case signedDate = "signed_date", notificationUUID = "notification_uuid"
    }
    public init(orgID: String, originalTransactionID: String, reason: String, signedDate: Timestamp, notificationUUID: String) {
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.reason = reason
        self.signedDate = signedDate
        self.notificationUUID = notificationUUID
    }
}

/// `appstore.renewal_failed`, on `appstore-sub-<originalTransactionId>`: Apple could not
/// renew the subscription (`DID_FAIL_TO_RENEW`). With a grace period (subtype
/// `GRACE_PERIOD`) the subscriber keeps the plan until `grace_period_expires_date`; without
/// one the subscription is in billing retry and its plan lapses at its expiry as usual.
/// A renewal signed later (`DID_RENEW`, `BILLING_RECOVERY`) ends the billing issue; an
/// end (`EXPIRED`, `GRACE_PERIOD_EXPIRED`) ends the subscription (N4).
public struct AppStoreRenewalFailed: DomainEvent {
    public static let type = "appstore.renewal_failed"
    public var orgID: String
    public var originalTransactionID: String
    /// Until when the subscriber keeps the plan (Apple's `gracePeriodExpiresDate`); nil when
    /// the subscription has no grace period (billing retry).
    public var gracePeriodExpiresDate: Timestamp?
    public var signedDate: Timestamp
    public var notificationUUID: String
    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id"
        case gracePeriodExpiresDate = "grace_period_expires_date", signedDate = "signed_date", notificationUUID = "notification_uuid"
    }
    public init(orgID: String, originalTransactionID: String, gracePeriodExpiresDate: Timestamp?, signedDate: Timestamp,
                notificationUUID: String) {
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.signedDate = signedDate
        self.notificationUUID = notificationUUID
    }
}

/// `appstore.notification_acknowledged`, on `appstore-notifications` (N6): a verified
/// notification that changes nothing (another type, a product that is not a plan, no
/// organization), kept so that it is deduplicated and can be found.
public struct AppStoreNotificationAcknowledged: DomainEvent {
    public static let type = "appstore.notification_acknowledged"
    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    public var reason: String
    public var environment: String
    enum CodingKeys: String, CodingKey {
        case notificationUUID = "notification_uuid", notificationType = "notification_type", subtype, reason, environment
    }
    public init(notificationUUID: String, notificationType: String, subtype: String?, reason: String, environment: String) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.reason = reason
        self.environment = environment
    }
}

/// `appstore.subscription_claimed`, on `appstore-sub-<originalTransactionId>`: the
/// administrator who bought a subscription presented its transaction through the app after
/// a notification had recorded it (which names nobody). It records what the app's post adds:
/// who holds the subscription (O10's "person whose App Store subscription holds it"), so that
/// they may change plan within its group. Once per subscription (idempotency key
/// `appstore-holder:<originalTransactionId>`): its first holder stays its holder.
public struct AppStoreSubscriptionClaimed: DomainEvent {
    public static let type = "appstore.subscription_claimed"
    public var orgID: String
    public var originalTransactionID: String
    /// The transaction presented.
    public var transactionID: String
    public var personID: String
    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id", transactionID = "transaction_id", personID = "person_id"
    }
    public init(orgID: String, originalTransactionID: String, transactionID: String, personID: String) {
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.personID = personID
    }

    /// One holder per subscription.
    public static func idempotencyKey(originalTransactionID id: String) -> String { "appstore-holder:" + ExternalID.key(id) }
}

/// `appstore.price_increase_reported`, on `appstore-sub-<originalTransactionId>`: Apple told
/// the subscriber of a price increase (`PRICE_INCREASE`), which they have not answered yet
/// (`pending`: without consent the subscription expires at renewal) or accepted. Changes
/// no plan; the subscription shows the latest one by `signed_date`.
public struct AppStorePriceIncreaseReported: DomainEvent {
    public static let type = "appstore.price_increase_reported"
    public var orgID: String
    public var originalTransactionID: String
    public var status: PriceIncreaseStatus
    /// The signed renewal info's `renewalPrice` (milliunits of `currency`) and `currency`, when it has them.
    public var renewalPrice: Int64?
    public var currency: String?
    public var signedDate: Timestamp
    public var notificationUUID: String
    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id", status, renewalPrice = "renewal_price", currency
        case signedDate = "signed_date", notificationUUID = "notification_uuid"
    }
    public init(orgID: String, originalTransactionID: String, status: PriceIncreaseStatus, renewalPrice: Int64?, currency: String?,
                signedDate: Timestamp, notificationUUID: String) {
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.status = status
        self.renewalPrice = renewalPrice
        self.currency = currency
        self.signedDate = signedDate
        self.notificationUUID = notificationUUID
    }
}

/// `appstore.renewal_extension_failed`, on `appstore-sub-<originalTransactionId>`: Apple
/// could not extend this subscription's renewal date (`RENEWAL_EXTENSION` with the subtype
/// `FAILURE`). Changes no plan: its expiry stays what its latest transaction says.
public struct AppStoreRenewalExtensionFailed: DomainEvent {
    public static let type = "appstore.renewal_extension_failed"
    public var orgID: String
    public var originalTransactionID: String
    public var signedDate: Timestamp
    public var notificationUUID: String
    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id"
        case signedDate = "signed_date", notificationUUID = "notification_uuid"
    }
    public init(orgID: String, originalTransactionID: String, signedDate: Timestamp, notificationUUID: String) {
        self.orgID = orgID
        self.originalTransactionID = originalTransactionID
        self.signedDate = signedDate
        self.notificationUUID = notificationUUID
    }
}
