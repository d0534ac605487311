import LedgerDomain
import LedgerJSON

/// A subscription's signed renewal information (Apple's `JWSRenewalInfoDecodedPayload`),
/// with the fields the ledger uses typed and the whole payload kept in `payload`.
///
/// It names no bundle ID, so only its signature, chain and environment are checked.
public struct AppStoreRenewalInfo: Sendable, Equatable {
    /// `originalTransactionId`: the subscription this is about.
    public var originalTransactionID: String
    /// The product of the current period.
    public var productID: String?
    /// The product that renews next (a downgrade shows here first).
    public var autoRenewProductID: String?
    /// 1 when the subscription renews, 0 when the customer turned renewal off.
    public var autoRenewStatus: Int?
    /// `signedDate`: when Apple signed it; the chain was checked at this instant.
    public var signedDate: Timestamp
    /// `Production`, `Sandbox` or `Xcode`.
    public var environment: String
    /// `expirationIntent`: why the subscription expired (1 voluntary, 2 billing error, …).
    public var expirationIntent: Int?
    /// `gracePeriodExpiresDate`: the end of the billing grace period, if in one.
    public var gracePeriodExpiresDate: Timestamp?
    /// `isInBillingRetryPeriod`: Apple is still trying to charge the renewal.
    public var isInBillingRetryPeriod: Bool?
    /// `renewalDate`: when the subscription renews or expires next.
    public var renewalDate: Timestamp?
    /// `priceIncreaseStatus`: 0 when the customer has not answered a price increase that
    /// needs their consent, 1 when they accepted it or it needed none.
    public var priceIncreaseStatus: Int?
    /// `renewalPrice`: what the next renewal costs, in milliunits of `currency`.
    public var renewalPrice: Int64?
    /// ISO 4217 code of `renewalPrice`.
    public var currency: String?
    /// The whole decoded payload, unknown fields included.
    public var payload: JSONValue

    /// Reads a renewal-info payload. This verifies nothing: use `AppStoreVerifier` on the
    /// JWS; this is for payloads that were verified before.
    public init(payload: JSONValue) throws(AppStoreError) {
        let fields = try PayloadFields(payload, kind: "renewal info")
        // A transaction also has originalTransactionId, signedDate and environment: refuse
        // it here so that one kind of signed payload is never taken for another.
        guard !fields.has("transactionId"), !fields.has("notificationType") else {
            throw AppStoreError(.malformedPayload, "this is a transaction or a notification, not renewal info")
        }
        originalTransactionID = try fields.string("originalTransactionId")
        productID = try fields.optionalString("productId")
        autoRenewProductID = try fields.optionalString("autoRenewProductId")
        autoRenewStatus = try fields.optionalInt("autoRenewStatus")
        signedDate = try fields.timestamp("signedDate")
        environment = try fields.string("environment")
        expirationIntent = try fields.optionalInt("expirationIntent")
        gracePeriodExpiresDate = try fields.optionalTimestamp("gracePeriodExpiresDate")
        isInBillingRetryPeriod = try fields.optionalBool("isInBillingRetryPeriod")
        renewalDate = try fields.optionalTimestamp("renewalDate")
        priceIncreaseStatus = try fields.optionalInt("priceIncreaseStatus")
        renewalPrice = try fields.optionalInt64("renewalPrice")
        currency = try fields.optionalString("currency")
        self.payload = payload
    }
}
