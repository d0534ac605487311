import Foundation
import LedgerDomain
import LedgerJSON

/// A StoreKit 2 signed transaction's payload (Apple's `JWSTransactionDecodedPayload`),
/// with the fields the ledger uses typed and the whole payload kept in `payload`.
public struct AppStoreTransaction: Sendable, Equatable {
    /// `transactionId`: this purchase or renewal.
    public var transactionID: String
    /// `originalTransactionId`: the subscription's first transaction, the same across renewals.
    public var originalTransactionID: String
    /// `bundleId`: the app; checked against the verifier's.
    public var bundleID: String
    /// `productId`: what was bought; not checked here (it needs the plan catalogue).
    public var productID: String
    /// `purchaseDate`: when this transaction (purchase or renewal) was charged.
    public var purchaseDate: Timestamp
    /// `originalPurchaseDate`: when the original transaction was.
    public var originalPurchaseDate: Timestamp?
    /// When an auto-renewable subscription period ends.
    public var expiresDate: Timestamp?
    /// When Apple refunded or revoked it.
    public var revocationDate: Timestamp?
    /// `revocationReason`: 0 for another reason, 1 for an app issue (Apple's codes).
    public var revocationReason: Int?
    /// `signedDate`: when Apple signed it; the chain was checked at this instant.
    public var signedDate: Timestamp
    /// `Production`, `Sandbox` or `Xcode` (see `AppStoreEnvironmentPolicy.Environment`).
    public var environment: String
    /// The UUID the app set when buying (the organization's account token, T3); not
    /// checked against anything here.
    public var appAccountToken: UUID?
    /// `Auto-Renewable Subscription`, `Consumable`, …
    public var type: String
    /// The subscription group, for auto-renewable subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// `webOrderLineItemId`: the subscription period's purchase event across devices.
    public var webOrderLineItemID: String?
    /// `isUpgraded`: true when the customer upgraded to another subscription (this one ends).
    public var isUpgraded: Bool?
    /// `offerType`: 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int?
    /// `offerIdentifier`: the promotional offer's or offer code's reference name.
    public var offerIdentifier: String?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// `inAppOwnershipType`: `PURCHASED`, or `FAMILY_SHARED` for a family member's access
    /// through Family Sharing.
    public var inAppOwnershipType: String?
    /// In milliunits of `currency`.
    public var price: Int64?
    /// ISO 4217 code of `price`.
    public var currency: String?
    /// The whole decoded payload, unknown fields included.
    public var payload: JSONValue

    /// Reads a transaction payload. This verifies nothing: use `AppStoreVerifier` on the
    /// JWS; this is for payloads that were verified before (e.g. kept in an event).
    public init(payload: JSONValue) throws(AppStoreError) {
        let fields = try PayloadFields(payload, kind: "transaction")
        guard !fields.has("notificationType") else {
            throw AppStoreError(.malformedPayload, "this is a notification, not a transaction")
        }
        transactionID = try fields.string("transactionId")
        originalTransactionID = try fields.string("originalTransactionId")
        bundleID = try fields.string("bundleId")
        productID = try fields.string("productId")
        purchaseDate = try fields.timestamp("purchaseDate")
        originalPurchaseDate = try fields.optionalTimestamp("originalPurchaseDate")
        expiresDate = try fields.optionalTimestamp("expiresDate")
        revocationDate = try fields.optionalTimestamp("revocationDate")
        revocationReason = try fields.optionalInt("revocationReason")
        signedDate = try fields.timestamp("signedDate")
        environment = try fields.string("environment")
        appAccountToken = try fields.optionalUUID("appAccountToken")
        type = try fields.string("type")
        subscriptionGroupIdentifier = try fields.optionalString("subscriptionGroupIdentifier")
        transactionReason = try fields.optionalString("transactionReason")
        webOrderLineItemID = try fields.optionalString("webOrderLineItemId")
        isUpgraded = try fields.optionalBool("isUpgraded")
        offerType = try fields.optionalInt("offerType")
        offerIdentifier = try fields.optionalString("offerIdentifier")
        offerDiscountType = try fields.optionalString("offerDiscountType")
        inAppOwnershipType = try fields.optionalString("inAppOwnershipType")
        price = try fields.optionalInt64("price")
        currency = try fields.optionalString("currency")
        self.payload = payload
    }
}
