/// Why an `HTTPClient` exchange failed.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The host did not resolve or nothing accepted the connection.
        public static let connectFailed = Code("connect_failed")
        /// The request could not be written.
        public static let sendFailed = Code("send_failed")
        /// No complete response arrived within the timeout.
        public static let timeout = Code("timeout")
        /// The server closed the connection before the response was complete.
        public static let connectionClosed = Code("connection_closed")
        /// The bytes received are not an HTTP/1.1 response.
        public static let malformedResponse = Code("malformed_response")
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
