import LedgerJSON

/// Where a purchase was made.
public enum PurchaseSource: String, Codable, Sendable, Hashable { case storekit, web }

/// `iap.purchase_recorded`, on `app-<id>-purchases`: one purchase in a user's history
/// with an app: a StoreKit 2 transaction the SDK synced (verified), or a web checkout
/// purchase an operator recorded.
public struct PurchaseRecorded: DomainEvent {
    public static let type = "iap.purchase_recorded"
    public var appID: String
    public var userID: String
    public var source: PurchaseSource
    /// StoreKit: the `transactionId`; web: the checkout's purchase id.
    public var purchaseID: String
    /// StoreKit: the `originalTransactionId` (the subscription); web: the purchase id of
    /// the first purchase of the subscription.
    public var originalID: String
    public var productID: String
    public var purchasedAt: Timestamp
    public var expiresAt: Timestamp?
    public var revokedAt: Timestamp?
    /// Whether this purchase started a free or introductory trial.
    public var trial: Bool
    /// StoreKit: `Sandbox`, `Production` or `Xcode`; web: nil.
    public var environment: String?

    enum CodingKeys: String, CodingKey {
        case source, trial, environment
        case appID = "app_id", userID = "user_id", purchaseID = "purchase_id", originalID = "original_id"
        case productID = "product_id", purchasedAt = "purchased_at", expiresAt = "expires_at", revokedAt = "revoked_at"
    }

    public init(appID: String, userID: String, source: PurchaseSource, purchaseID: String, originalID: String, productID: String,
                purchasedAt: Timestamp, expiresAt: Timestamp?, revokedAt: Timestamp? = nil, trial: Bool, environment: String?) {
        self.appID = appID
        self.userID = userID
        self.source = source
        self.purchaseID = purchaseID
        self.originalID = originalID
        self.productID = productID
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.trial = trial
        self.environment = environment
    }
}

/// `iap.offer_impressions_counted`, on `app-<id>-impressions`: offers served since the
/// previous count, per campaign and variant (batched: one event per app and flush, not
/// one per request).
public struct OfferImpressionsCounted: DomainEvent {
    public struct Count: Codable, Sendable, Hashable {
        public var campaignID: String
        public var variantID: Int64?
        public var count: Int64
        enum CodingKeys: String, CodingKey { case count, campaignID = "campaign_id", variantID = "variant_id" }
        public init(campaignID: String, variantID: Int64?, count: Int64) {
            self.campaignID = campaignID
            self.variantID = variantID
            self.count = count
        }
    }

    public static let type = "iap.offer_impressions_counted"
    public var appID: String
    public var counts: [Count]
    enum CodingKeys: String, CodingKey { case counts, appID = "app_id" }
    public init(appID: String, counts: [Count]) {
        self.appID = appID
        self.counts = counts
    }
}
