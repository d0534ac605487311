/// Why a promotional offer key could not be set up. `code` is stable; `message` says what
/// was wrong and never holds a byte of the key.
public struct PromotionalOfferKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not one PEM `PRIVATE KEY` block holding a PKCS#8 P-256 key (a `.p8` file).
        public static let invalidPrivateKey = Code("invalid_private_key")
        /// A key ID that is not App Store Connect's ten upper-case letters and digits.
        public static let invalidKeyID = Code("invalid_key_id")
        /// An empty bundle ID, or one holding a character the payload cannot carry.
        public static let invalidBundleID = Code("invalid_bundle_id")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
