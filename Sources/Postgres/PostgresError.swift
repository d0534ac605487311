/// An error from the PostgreSQL layer, with a stable `code` and, when the server sent one,
/// its SQLSTATE.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// Stable categories, so that callers never match on message text.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The connection could not be opened.
        public static let connectionFailed = Code("connection_failed")
        /// The connection broke while a command was in flight; its outcome is unknown.
        public static let connectionLost = Code("connection_lost")
        /// The server rejected the command; `sqlState` says why.
        public static let serverError = Code("server_error")
        /// The result had a shape the caller did not expect.
        public static let unexpectedResult = Code("unexpected_result")
        /// No connection became free in time.
        public static let poolTimeout = Code("pool_timeout")
    }

    public var code: Code
    /// The five-character SQLSTATE, when the server sent one.
    public var sqlState: String?
    public var message: String
    public var detail: String?
    /// The constraint the error names (unique and foreign-key violations).
    public var constraint: String?

    public init(code: Code, sqlState: String? = nil, message: String, detail: String? = nil, constraint: String? = nil) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
    }

    public var description: String {
        var text = "\(code)"
        if let sqlState { text += " [\(sqlState)]" }
        text += ": \(message)"
        if let detail { text += " (\(detail))" }
        return text
    }

    /// SQLSTATEs the code tests against.
    public enum SQLState {
        public static let uniqueViolation = "23505"
        public static let insufficientPrivilege = "42501"
        public static let raiseException = "P0001"
        public static let serializationFailure = "40001"
        public static let deadlockDetected = "40P01"
        public static let undefinedTable = "42P01"
        public static let adminShutdown = "57P01"
        public static let lockNotAvailable = "55P03"
        public static let queryCanceled = "57014"
    }
}
