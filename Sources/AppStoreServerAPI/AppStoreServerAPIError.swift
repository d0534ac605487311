import AppStore

/// Why a call to the App Store Server API gave no usable answer. `code` is stable: it is
/// what callers (the sync job, `ledger appstore …`) branch on and what logs and metrics
/// carry. Apple's own error body (`errorCode`, `errorMessage`) keeps its number in
/// `appleErrorCode` and gets a named code when it is one we know (see
/// `AppStoreServerAPIError+AppleCodes.swift`), `apple_<number>` otherwise.
public struct AppStoreServerAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, snake_case code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Ours: the request never got an answer we could use.
        /// The `.p8` text is not one PKCS#8 P-256 private key.
        public static let invalidPrivateKey = Code("invalid_private_key")
        /// The caller asked for something Apple would refuse (checked before sending).
        public static let invalidRequest = Code("invalid_request")
        /// The outbound policy refused the URL or the address (not Apple's host, not https).
        public static let refused = Code("refused")
        public static let timedOut = Code("timed_out")
        public static let connectionFailed = Code("connection_failed")
        public static let tlsFailed = Code("tls_failed")
        /// Any other transport failure (the answer too large, the client closed).
        public static let transportFailed = Code("transport_failed")
        /// 401: Apple refused the JWT (signature, key id, issuer, bundle id, expiry).
        public static let tokenRefused = Code("token_refused")
        /// 429 without Apple's body (with it: `rate_limit_exceeded`).
        public static let rateLimited = Code("rate_limited")
        /// A 5xx without Apple's body.
        public static let serverError = Code("server_error")
        /// A status the endpoint does not answer with, without Apple's body.
        public static let unexpectedStatus = Code("unexpected_status")
        /// The answer is not the JSON the endpoint documents.
        public static let malformedAnswer = Code("malformed_answer")
        /// A signed value in the answer did not verify (chain, signature, environment,
        /// bundle id, app Apple id): the whole answer is refused, nothing is dropped silently.
        public static let unverifiedSignedValue = Code("unverified_signed_value")
    }

    public var code: Code
    public var message: String
    /// The HTTP status, when Apple answered.
    public var status: Int?
    /// Apple's `errorCode`, when its body had one (e.g. 4040010).
    public var appleErrorCode: Int64?
    /// Seconds Apple asked to wait (`Retry-After`) when it refused with 429.
    public var retryAfter: Double?
    /// How many requests were sent, retries included.
    public var attempts: Int
    /// Why a signed value did not verify (`unverified_signed_value` only).
    public var verification: AppStoreError?

    public init(_ code: Code, _ message: String, status: Int? = nil, appleErrorCode: Int64? = nil, retryAfter: Double? = nil,
                attempts: Int = 0, verification: AppStoreError? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.appleErrorCode = appleErrorCode
        self.retryAfter = retryAfter
        self.attempts = attempts
        self.verification = verification
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let status { text += " (HTTP \(status)" + (appleErrorCode.map { ", Apple error \($0)" } ?? "") + ")" }
        return text
    }

    /// Whether Apple says the same request may succeed later: its `…Retryable` errors
    /// (4040002, 4040004, 4040006, 5000001), 429 and 5xx, timeouts and failed connections.
    /// The client retries only 429, 5xx and the transport failures itself (a 4xx is an
    /// answer); a caller such as the sync job may try a retryable 404 again on its next run.
    public var isRetryable: Bool {
        if let appleErrorCode, Self.retryableAppleCodes.contains(appleErrorCode) { return true }
        if let status { return status == 429 || status >= 500 }
        return code == .timedOut || code == .connectionFailed
    }

    static let retryableAppleCodes: Set<Int64> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]
}
