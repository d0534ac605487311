import LedgerDomain
import LedgerJSON

/// An App Store Server Notification V2 (Apple's `ResponseBodyV2DecodedPayload`), verified
/// together with the signed transaction and renewal info it carries (N2).
public struct AppStoreNotification: Sendable, Equatable {
    /// `SUBSCRIBED`, `DID_RENEW`, `EXPIRED`, …
    public var notificationType: String
    /// `RESUBSCRIBE`, `VOLUNTARY`, `UPGRADE`, …
    public var subtype: String?
    /// Apple's identifier of the notification, the same on every retry (N1 deduplicates on it).
    public var notificationUUID: String
    /// `version`: `2.0` for App Store Server Notifications V2.
    public var version: String?
    /// `signedDate`: when Apple signed it; the chain was checked at this instant.
    public var signedDate: Timestamp
    /// `Production`, `Sandbox` or `Xcode`, from `data` (or `summary`, `externalPurchaseToken`).
    public var environment: String
    /// The app, from `data`; checked against the verifier's.
    public var bundleID: String
    /// `appAppleId`: the app's Apple ID (absent in the sandbox for some apps).
    public var appAppleID: Int64?
    /// `data.status`: the subscription's status (1 active, 2 expired, …).
    public var status: Int?
    /// `data.signedTransactionInfo`, verified.
    public var transaction: AppStoreTransaction?
    /// `data.signedRenewalInfo`, verified.
    public var renewalInfo: AppStoreRenewalInfo?
    /// `summary`, in a `RENEWAL_EXTENSION` notification with the subtype `SUMMARY`.
    public var summary: Summary?
    /// The whole decoded payload; nested JWS stay as the signed text Apple sent.
    public var payload: JSONValue

    init(contents: NotificationContents, transaction: AppStoreTransaction?, renewalInfo: AppStoreRenewalInfo?, payload: JSONValue) {
        notificationType = contents.notificationType
        subtype = contents.subtype
        notificationUUID = contents.notificationUUID
        version = contents.version
        signedDate = contents.signedDate
        environment = contents.environment
        bundleID = contents.bundleID
        appAppleID = contents.appAppleID
        status = contents.status
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        summary = contents.summary
        self.payload = payload
    }

    /// A renewal-extension summary (Apple's `summary` object): the outcome of a request to
    /// extend the renewal date of every eligible subscriber of a product.
    public struct Summary: Sendable, Equatable {
        /// `requestIdentifier`: the identifier the request was made with.
        public var requestIdentifier: String?
        /// `productId`: the product whose subscriptions were extended.
        public var productID: String?
        /// `succeededCount`, `failedCount`: subscriptions extended, and not.
        public var succeededCount: Int64?
        public var failedCount: Int64?
    }
}
