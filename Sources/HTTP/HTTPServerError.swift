/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The configuration is unusable (port out of range, no threads, …).
        public static let invalidConfiguration = Code("invalid_configuration")
        /// The host name did not resolve to an address.
        public static let invalidAddress = Code("invalid_address")
        /// The address could not be bound (in use, not local, not permitted).
        public static let bindFailed = Code("bind_failed")
        /// libmicrohttpd refused to start.
        public static let startFailed = Code("start_failed")
        /// `start()` was called on a server that was already started.
        public static let alreadyStarted = Code("already_started")
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
