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

    enum CodingKeys: String, CodingKey {
        case orgID = "org_id", originalTransactionID = "original_transaction_id", transactionID = "transaction_id"
        case productID = "product_id", plan, purchaseDate = "purchase_date", expiresDate = "expires_date"
        case revocationDate = "revocation_date", signedDate = "signed_date", environment, personID = "person_id", via
        case expiredWhenRecorded = "expired_when_recorded"
    }

    public init(orgID: String, originalTransactionID: String, transactionID: String, productID: String, plan: Plan,
                purchaseDate: Timestamp, expiresDate: Timestamp?, revocationDate: Timestamp?, signedDate: Timestamp,
                environment: String, personID: String?, via: String, expiredWhenRecorded: Bool) {
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
public struct AppStoreSubscriptionEnded: DomainEvent {
    public static let type = "appstore.subscription_ended"
    public var orgID: String
    public var originalTransactionID: String
    /// The notification type: EXPIRED, GRACE_PERIOD_EXPIRED, REFUND or REVOKE.
    public var reason: String
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
