import AppStore
import Crypto
import Foundation
import LedgerDomain

/// Signing a promotional offer for an app, whatever surface asks: the rules (the product
/// is one of the app's auto-renewable subscriptions, an app's own timestamp is near the
/// server's clock) and the key of the app's bundle ID. Nothing is read from the database
/// and nothing is appended: the app comes from the caller's authentication, and the
/// signature changes no state (docs/appstore.md, "Promotional offer signatures").
public struct PromotionalOfferSigning: Sendable {
    /// How far an app's own timestamp may be from the server's clock, either way: a
    /// device's clock drifts a little, and Apple keeps a signature valid for a day from its
    /// timestamp, so a timestamp far ahead would stretch that day and one far behind would
    /// shorten it to nothing.
    public static let timestampWindowMilliseconds: Int64 = 5 * 60 * 1000

    /// The signers by bundle ID.
    private let signers: [String: PromotionalOfferSigner]

    /// One signer per bundle ID; the first of two for the same bundle ID is kept (the
    /// configuration refuses duplicates before this).
    public init(signers: [PromotionalOfferSigner] = []) {
        self.signers = Dictionary(signers.map { ($0.bundleID, $0) }) { first, _ in first }
    }

    /// The bundle IDs a key is configured for, sorted.
    public var bundleIDs: [String] { signers.keys.sorted() }

    /// Signs `request` for `app` at `now`. The nonce is the app's, or a new random UUID
    /// (version 4); the timestamp the app's, or `now` in milliseconds.
    public func sign(_ request: PromotionalOfferRequest, app: AppCatalog, now: Timestamp,
                     newNonce: () -> UUID = SecureRandom.uuid) throws(PromotionalOfferRefusal) -> PromotionalOfferSignature {
        guard let product = app.product(request.productID) else {
            throw PromotionalOfferRefusal(.unknownProduct, "\(request.productID) is not a product of this app's catalog")
        }
        guard product.type == .autoRenewableSubscription else {
            throw PromotionalOfferRefusal(.notASubscription,
                "\(product.id) is a \(product.type.rawValue) product; promotional offers apply to auto-renewable subscriptions only")
        }
        guard !request.offerID.isEmpty, PromotionalOfferSigner.fitsPayload(request.offerID) else {
            throw PromotionalOfferRefusal(.invalidOfferID, "the offer identifier must be printable ASCII without spaces")
        }
        let nowMilliseconds = now.microseconds / 1000
        if let timestamp = request.timestamp, Self.outsideWindow(timestamp, now: nowMilliseconds) {
            throw PromotionalOfferRefusal(.timestampOutOfWindow,
                "timestamp \(timestamp) is more than \(Self.timestampWindowMilliseconds / 1000) seconds from the server's clock (\(nowMilliseconds) Unix milliseconds); omit it to have the server's")
        }
        guard let signer = signers[app.bundleID] else {
            throw PromotionalOfferRefusal(.offerKeyNotConfigured,
                "no promotional offer key is configured for \(app.bundleID): an operator adds one to LEDGER_APPSTORE_OFFER_KEYS")
        }
        return signer.sign(productID: product.id, offerID: request.offerID, appAccountToken: request.appAccountToken,
                           nonce: request.nonce ?? newNonce(), timestamp: request.timestamp ?? nowMilliseconds)
    }

    /// Whether `timestamp` is further than the window from `now` (both Unix milliseconds);
    /// any value of an `Int64` is answered, without overflow.
    static func outsideWindow(_ timestamp: Int64, now: Int64) -> Bool {
        let (difference, overflow) = timestamp.subtractingReportingOverflow(now)
        return overflow || difference.magnitude > UInt64(timestampWindowMilliseconds)
    }
}
