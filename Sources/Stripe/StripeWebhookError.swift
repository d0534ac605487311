/// Why a webhook from Stripe is refused, with a stable code: nothing is recorded from it.
public struct StripeWebhookError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No `Stripe-Signature` header.
        public static let signatureMissing = Code("stripe_signature_missing")
        /// The header is not `t=…,v1=…` (no `t`, no `v1`, a part that is not key=value).
        public static let signatureMalformed = Code("stripe_signature_malformed")
        /// `t` is further from this clock than the tolerance: a replay, or a clock gone wrong.
        public static let signatureStale = Code("stripe_signature_stale")
        /// No `v1` is the HMAC of the body with any of the app's endpoint secrets.
        public static let signatureMismatch = Code("stripe_signature_mismatch")
        /// The signed body is not one of Stripe's events.
        public static let eventMalformed = Code("stripe_event_malformed")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
