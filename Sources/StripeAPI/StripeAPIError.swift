/// Why a call to Stripe's API gave no usable answer, or why a configuration of it is
/// refused. `code` is stable: it is what callers (a reconcile, `ledger stripe …`) branch on
/// and what logs and metrics carry. Stripe's own error body (`{"error": {"type", "code",
/// "message"}}`) keeps its `type` and `code` beside ours. No message ever holds a secret
/// key: the client removes anything shaped like one from what Stripe says
/// (`StripeSecretKey.redacting`), and the configuration's checks never quote a key.
public struct StripeAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, snake_case code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// 401: Stripe refused the secret key (unknown, revoked, or of another account).
        public static let authenticationFailed = Code("stripe_authentication_failed")
        /// 403: the key may not do this (a restricted key without the permission).
        public static let permissionDenied = Code("stripe_permission_denied")
        /// 429 after the retries allowed: too many requests, or a lock held too long.
        public static let rateLimited = Code("stripe_rate_limited")
        /// 400 or 404, or a request refused before it was sent: Stripe would not answer it.
        public static let invalidRequest = Code("stripe_invalid_request")
        /// 5xx or no answer (a refused connection, a timeout) after the retries allowed.
        public static let unavailable = Code("stripe_unavailable")
        /// The answer is not the JSON the endpoint documents.
        public static let answerMalformed = Code("stripe_answer_malformed")
        /// Any other status (402, 409 when not retried, a 3xx).
        public static let unexpectedStatus = Code("stripe_unexpected_status")
        /// The outbound policy refused the URL or the address (not https to a public host).
        public static let refused = Code("stripe_refused")
        /// A secret key that is not `sk_test_`, `sk_live_`, `rk_test_` or `rk_live_` and its
        /// letters and digits.
        public static let secretKeyInvalid = Code("stripe_secret_key_invalid")
        /// The keys file (`LEDGER_STRIPE_API_KEYS`) or a configuration is wrong: the message
        /// names the entry and the field.
        public static let configurationInvalid = Code("stripe_configuration_invalid")
    }

    public var code: Code
    /// What went wrong, in words; never a key.
    public var message: String
    /// The HTTP status, when Stripe answered.
    public var status: Int?
    /// Stripe's `error.type` (`invalid_request_error`, `api_error`, …), when its body had one.
    public var stripeType: String?
    /// Stripe's `error.code` (`resource_missing`, `rate_limit`, `lock_timeout`, …), when given.
    public var stripeCode: String?
    /// Stripe's `Request-Id` header, to quote to Stripe's support.
    public var requestID: String?
    /// How many requests were sent, retries included (0: refused before sending).
    public var attempts: Int

    public init(_ code: Code, _ message: String, status: Int? = nil, stripeType: String? = nil, stripeCode: String? = nil,
                requestID: String? = nil, attempts: Int = 0) {
        self.code = code
        self.message = message
        self.status = status
        self.stripeType = stripeType
        self.stripeCode = stripeCode
        self.requestID = requestID
        self.attempts = attempts
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let status { text += " (HTTP \(status)" + (stripeCode.map { ", Stripe code \($0)" } ?? "") + ")" }
        return text
    }

    /// Whether the same request may succeed later: 429, 5xx and the transport failures. The
    /// client has already retried these within its policy; a caller with a schedule of its
    /// own (a reconcile job) may try again on its next run.
    public var isRetryable: Bool { code == .rateLimited || code == .unavailable }
}
