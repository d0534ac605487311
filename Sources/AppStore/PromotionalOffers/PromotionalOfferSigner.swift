import Crypto
import Foundation

/// Signs promotional offers for one app with its promotional offer key: an In-App
/// Purchase key (a `.p8` file from App Store Connect: PEM, PKCS#8, P-256) and its key ID.
/// StoreKit sends the signature to Apple with the purchase, and Apple checks it with the
/// public half of the key named by the key ID.
public struct PromotionalOfferSigner: Sendable {
    /// The app's bundle ID: the payload's first value.
    public let bundleID: String
    /// The key's identifier, shown beside it in App Store Connect.
    public let keyID: String
    /// The private key; it signs and never leaves the process.
    public let key: AppStoreSigningKey

    /// A signer with a key already loaded; refuses a key ID or bundle ID the payload
    /// cannot carry, and a key that is not on P-256.
    public init(bundleID: String, keyID: String, key: AppStoreSigningKey) throws(PromotionalOfferKeyError) {
        // App Store Connect's key IDs are ten upper-case letters and digits; anything else
        // gives signatures Apple refuses, so it is refused at startup instead.
        guard keyID.utf8.count == 10, keyID.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) }) else {
            throw PromotionalOfferKeyError(.invalidKeyID, "the key ID must be the ten upper-case letters and digits App Store Connect shows beside the key")
        }
        guard !bundleID.isEmpty, Self.fitsPayload(bundleID) else {
            throw PromotionalOfferKeyError(.invalidBundleID, "the bundle ID must be a non-empty string of printable characters without spaces")
        }
        guard key.curve == "P-256" else {
            throw PromotionalOfferKeyError(.invalidPrivateKey, "the promotional offer key must be on P-256")
        }
        self.bundleID = bundleID
        self.keyID = keyID
        self.key = key
    }

    /// A signer with the key read from the text of its `.p8` file
    /// (`-----BEGIN PRIVATE KEY-----`, PKCS#8, P-256).
    public init(bundleID: String, keyID: String, privateKeyPEM: String) throws(PromotionalOfferKeyError) {
        guard let blocks = PEM.blocks("PRIVATE KEY", in: privateKeyPEM), blocks.count == 1 else {
            throw PromotionalOfferKeyError(.invalidPrivateKey, "the promotional offer key must be one PEM PRIVATE KEY block (a .p8 file)")
        }
        guard let key = AppStoreSigningKey(pkcs8DER: blocks[0]) else {
            throw PromotionalOfferKeyError(.invalidPrivateKey, "the promotional offer key is not a PKCS#8 P-256 private key")
        }
        try self.init(bundleID: bundleID, keyID: keyID, key: key)
    }

    /// Whether `value` can be one of the payload's values: printable ASCII without spaces,
    /// so never the separator (U+2063) nor anything that reads differently elsewhere.
    public static func fitsPayload(_ value: String) -> Bool {
        value.utf8.allSatisfy { (0x21...0x7e).contains($0) }
    }

    /// The payload for this app and key, and its signature.
    /// - Precondition: `productID` and `offerID` fit the payload (`fitsPayload`); the
    ///   callers check what a client sent before it gets here.
    public func sign(productID: String, offerID: String, appAccountToken: UUID?, nonce: UUID, timestamp: Int64) -> PromotionalOfferSignature {
        precondition(Self.fitsPayload(productID) && Self.fitsPayload(offerID), "a value that does not fit the payload")
        let payload = PromotionalOfferPayload(bundleID: bundleID, keyID: keyID, productID: productID, offerID: offerID,
                                              appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        return PromotionalOfferSignature(payload: payload, der: key.signDER(payload.bytes))
    }
}
