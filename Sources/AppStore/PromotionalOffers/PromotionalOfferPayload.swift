import Foundation

/// The text a promotional offer's signature covers, as Apple's StoreKit documentation
/// ("Generating a signature for promotional offers") lays it out: seven values in a fixed
/// order, joined by U+2063 INVISIBLE SEPARATOR, signed as UTF-8.
///
/// The app account token and the nonce are UUIDs written in lowercase; an absent token is
/// the empty string, which Apple allows. The other values are written as given: the
/// signer checks that none of them holds the separator, which would shift every value
/// after it.
public struct PromotionalOfferPayload: Sendable, Hashable {
    /// U+2063 INVISIBLE SEPARATOR, between two values.
    public static let separator: Character = "\u{2063}"

    /// The app's bundle ID (`appBundleID`).
    public var bundleID: String
    /// The promotional offer key's identifier (`keyIdentifier`), shown in App Store Connect.
    public var keyID: String
    /// The auto-renewable subscription's product ID (`productIdentifier`).
    public var productID: String
    /// The promotional offer's identifier set up in App Store Connect (`offerIdentifier`).
    public var offerID: String
    /// The purchase's app account token (`appAccountToken`, earlier `applicationUsername`),
    /// or nil for the empty string.
    public var appAccountToken: UUID?
    /// The one-time anti-replay value (`nonce`).
    public var nonce: UUID
    /// When the signature was made, in Unix milliseconds (`timestamp`).
    public var timestamp: Int64

    public init(bundleID: String, keyID: String, productID: String, offerID: String, appAccountToken: UUID?, nonce: UUID,
                timestamp: Int64) {
        self.bundleID = bundleID
        self.keyID = keyID
        self.productID = productID
        self.offerID = offerID
        self.appAccountToken = appAccountToken
        self.nonce = nonce
        self.timestamp = timestamp
    }

    /// The values in Apple's order, as written into the payload.
    public var values: [String] {
        [bundleID, keyID, productID, offerID, appAccountToken?.uuidString.lowercased() ?? "", nonce.uuidString.lowercased(),
         String(timestamp)]
    }

    /// The payload as text.
    public var text: String { values.joined(separator: String(Self.separator)) }

    /// The bytes that are signed: the text in UTF-8.
    public var bytes: [UInt8] { Array(text.utf8) }
}
