/// Why an App Store JWS was refused. `code` is stable and meant for programs (problem
/// details, logs, tests); `message` is for people and says what exactly was wrong.
public struct AppStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as written in problem details and logs, e.g. `bad_signature`.
        public let rawValue: String
        /// A code; use the constants below.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// `rawValue`.
        public var description: String { rawValue }

        /// Not three base64url parts, a header that is not a JSON object, a certificate
        /// that is not base64 DER, or a signature part that is not base64url.
        public static let malformedJWS = Code("malformed_jws")
        /// The header's `alg` is not `ES256` (`none` and `HS256` included), the leaf's key
        /// is not on P-256, or the header has `crit` parameters.
        public static let unsupportedAlgorithm = Code("unsupported_algorithm")
        /// The header has no `x5c`, or an empty one.
        public static let missingCertificates = Code("missing_certificates")
        /// The certificates do not lead from the leaf through the intermediate to a
        /// trusted root (or, for an Xcode JWS, the certificate is not a configured root).
        public static let untrustedChain = Code("untrusted_chain")
        /// A certificate of the chain is not valid at the payload's `signedDate`.
        public static let certificateNotValidAtSignedDate = Code("certificate_not_valid_at_signed_date")
        /// The leaf lacks Apple's receipt-signing mark, OID 1.2.840.113635.100.6.11.1.
        public static let missingReceiptSigningOID = Code("missing_receipt_signing_oid")
        /// The intermediate lacks Apple's WWDR mark, OID 1.2.840.113635.100.6.2.1.
        public static let missingWWDROID = Code("missing_wwdr_oid")
        /// The signature is not 64 bytes or does not verify over `header.payload`.
        public static let badSignature = Code("bad_signature")
        /// The payload names another app.
        public static let bundleMismatch = Code("bundle_mismatch")
        /// The payload's environment is not accepted here (T3), or is not the one asked for.
        public static let environmentNotAllowed = Code("environment_not_allowed")
        /// The payload is not a JSON object of the expected kind, or a field has the
        /// wrong type.
        public static let malformedPayload = Code("malformed_payload")
    }

    /// Why, for programs.
    public var code: Code
    /// Why, for people: which part or certificate, and what was found.
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The same error, its message prefixed with where it happened (a nested JWS).
    func within(_ place: String) -> AppStoreError {
        AppStoreError(code, "\(place): \(message)")
    }
}
