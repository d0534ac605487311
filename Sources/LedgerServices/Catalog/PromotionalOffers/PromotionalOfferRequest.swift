import Foundation

/// What an app asks to have signed, as its SDK sent it once parsed: the offer, the
/// subscription it discounts and, optionally, the purchase's app account token and the
/// nonce and timestamp the app chose itself.
public struct PromotionalOfferRequest: Sendable, Hashable {
    public var productID: String
    public var offerID: String
    /// The purchase's app account token; nil signs the empty string.
    public var appAccountToken: UUID?
    /// The app's own nonce; nil has the server make one (UUID version 4).
    public var nonce: UUID?
    /// The app's own timestamp in Unix milliseconds; nil has the server take its clock's.
    public var timestamp: Int64?

    public init(productID: String, offerID: String, appAccountToken: UUID? = nil, nonce: UUID? = nil, timestamp: Int64? = nil) {
        self.productID = productID
        self.offerID = offerID
        self.appAccountToken = appAccountToken
        self.nonce = nonce
        self.timestamp = timestamp
    }
}
