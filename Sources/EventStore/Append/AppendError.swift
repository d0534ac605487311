/// Why an append wrote nothing. Codes are stable; `message` is for people.
public struct AppendError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public var description: String { rawValue }
        /// A stream was not at the version the append expected.
        public static let wrongExpectedVersion = Code(rawValue: "wrong_expected_version")
        /// The idempotency key was used before for a different request.
        public static let idempotencyConflict = Code(rawValue: "idempotency_conflict")
        /// The request itself is malformed (names, sizes, JSON).
        public static let invalidEvent = Code(rawValue: "invalid_event")
        /// The database could not be reached or refused the write.
        public static let unavailable = Code(rawValue: "store_unavailable")
        /// The store is shutting down and took no new appends.
        public static let closed = Code(rawValue: "store_closed")
        /// The database failed while the commit was in flight and could not be asked
        /// afterwards whether it happened. The append may be in the log; a retry with the
        /// same idempotency key appends it at most once.
        public static let outcomeUnknown = Code(rawValue: "append_outcome_unknown")
    }

    public var code: Code
    public var message: String
    /// For `wrongExpectedVersion`: the stream and its actual version.
    public var stream: String?
    public var actualVersion: Int64?
    /// For `idempotencyConflict`: the key that was used before for a different request.
    public var key: String?

    public init(code: Code, message: String, stream: String? = nil, actualVersion: Int64? = nil, key: String? = nil) {
        self.code = code
        self.message = message
        self.stream = stream
        self.actualVersion = actualVersion
        self.key = key
    }

    public var description: String { "\(code): \(message)" }
}
