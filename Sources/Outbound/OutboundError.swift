/// Why an outbound request did not get an answer. Each has a stable code, recorded with
/// a delivery attempt.
public struct OutboundError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Not a URL this policy sends to (scheme, credentials, no host).
        case refusedURL = "refused_url"
        /// The name resolved to an address the policy refuses (loopback, private, …).
        case refusedAddress = "refused_address"
        case timedOut = "timed_out"
        case connectionFailed = "connection_failed"
        case tlsFailed = "tls_failed"
        /// The answer was larger than the client reads.
        case answerTooLarge = "answer_too_large"
        case failed
        /// The client was closed before the request was sent.
        case closed
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
