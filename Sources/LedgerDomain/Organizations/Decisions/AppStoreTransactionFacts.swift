import Foundation

/// What a verified StoreKit 2 transaction says, as the rules need it (T3, T4, N3): the
/// signature, chain, bundle and environment policy were checked by the verifier; the ids
/// are Apple's, as signed, and may hold anything (`ExternalID` stores them).
public struct AppStoreTransactionFacts: Sendable, Hashable {
    public var transactionID: String
    public var originalTransactionID: String
    public var productID: String
    public var purchaseDate: Timestamp
    public var expiresDate: Timestamp?
    public var revocationDate: Timestamp?
    public var signedDate: Timestamp
    public var environment: String
    public var appAccountToken: UUID?
    /// `inAppOwnershipType`: `PURCHASED`, or `FAMILY_SHARED` through Family Sharing.
    public var inAppOwnershipType: String?
    /// The offer it was bought with: `offerType`, `offerIdentifier`, `offerDiscountType`.
    public var offerType: Int?
    public var offerIdentifier: String?
    public var offerDiscountType: String?

    public init(transactionID: String, originalTransactionID: String, productID: String, purchaseDate: Timestamp,
                expiresDate: Timestamp?, revocationDate: Timestamp?, signedDate: Timestamp, environment: String,
                appAccountToken: UUID?, inAppOwnershipType: String? = nil, offerType: Int? = nil,
                offerIdentifier: String? = nil, offerDiscountType: String? = nil) {
        self.inAppOwnershipType = inAppOwnershipType
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.signedDate = signedDate
        self.environment = environment
        self.appAccountToken = appAccountToken
    }

    /// The subscription's stream: `appstore-sub-` and the original transaction id.
    public var stream: String { Self.stream(originalTransactionID: originalTransactionID) }

    /// The stream of the subscription `id` started (an organization's timeline reads it).
    public static func stream(originalTransactionID id: String) -> String { "appstore-sub-" + ExternalID.key(id) }
    /// Recorded once per transaction id.
    public var idempotencyKey: String { "appstore-tx:" + ExternalID.key(transactionID) }
}
