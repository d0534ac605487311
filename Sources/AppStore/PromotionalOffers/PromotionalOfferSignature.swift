import Foundation

/// What StoreKit needs to redeem a promotional offer, besides the offer's identifier:
/// the arguments of `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
/// and of `SKPaymentDiscount`.
public struct PromotionalOfferSignature: Sendable, Hashable {
    /// What was signed.
    public var payload: PromotionalOfferPayload
    /// The signature: ECDSA P-256 with SHA-256 over `payload.bytes`, DER.
    public var der: [UInt8]

    public init(payload: PromotionalOfferPayload, der: [UInt8]) {
        self.payload = payload
        self.der = der
    }

    /// The key's identifier (`keyID`).
    public var keyID: String { payload.keyID }
    /// The nonce, lowercase as it was signed.
    public var nonce: String { payload.nonce.uuidString.lowercased() }
    /// Unix milliseconds, as signed.
    public var timestamp: Int64 { payload.timestamp }
    /// The DER signature in standard base64, as StoreKit takes it.
    public var base64: String { Data(der).base64EncodedString() }
}
