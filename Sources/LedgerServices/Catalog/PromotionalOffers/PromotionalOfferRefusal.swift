/// Why a promotional offer was not signed. `code` is stable and written as the problem's
/// code; `message` says what exactly was wrong.
public struct PromotionalOfferRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The product is not in the app's catalog (another app's products included: they
        /// are never revealed).
        public static let unknownProduct = Code("unknown_product")
        /// The product is in the catalog but is not an auto-renewable subscription, the only
        /// kind promotional offers apply to.
        public static let notASubscription = Code("not_a_subscription")
        /// An offer identifier the payload cannot carry (empty, or not printable ASCII
        /// without spaces: it could hold the separator and shift the values after it).
        public static let invalidOfferID = Code("invalid_offer_id")
        /// The app's own timestamp is too far from the server's clock.
        public static let timestampOutOfWindow = Code("timestamp_out_of_window")
        /// No promotional offer key is configured for the app's bundle ID: the deployment's
        /// configuration, not the request, is what is missing.
        public static let offerKeyNotConfigured = Code("offer_key_not_configured")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
