/// Why a value cannot be stored as PostgreSQL `jsonb` with the exact text
/// `canonicalText` predicts.
public struct JSONValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A string or key contains U+0000, which PostgreSQL text cannot hold.
        public static let nulCharacter = Code("nul_character")
        /// A `.decimal` whose text is not what PostgreSQL's `numeric` prints (an exponent,
        /// a `+`, leading zeros, `-0`, not a number at all, …); use
        /// `JSONValue.decimal(fromLiteral:)` to make one.
        public static let noncanonicalDecimal = Code("noncanonical_decimal")
        /// A `.decimal` beyond `numeric`'s range: more than 131072 digits before the point
        /// or more than 16383 after it.
        public static let decimalOutOfRange = Code("decimal_out_of_range")
        /// A string or key of more than 268435455 bytes, `jsonb`'s limit.
        public static let stringTooLong = Code("string_too_long")
        /// Arrays and objects nested deeper than `JSONParseOptions.default.maxDepth`.
        /// PostgreSQL would store it, but `JSONValue.parse` could not read it back.
        public static let tooDeep = Code("too_deep")
    }

    public let code: Code
    /// Where the offending value is.
    public let path: JSONPath
    /// What is wrong, without the path.
    public let reason: String

    public init(code: Code, path: JSONPath, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// The path and the reason, for people: "data.name: string contains U+0000 …".
    public var message: String { "\(path.label): \(reason)" }

    public var description: String { "\(code): \(message)" }

    func prepending(_ component: JSONPath.Component) -> JSONValidationError {
        JSONValidationError(code: code, path: path.prepending(component), reason: reason)
    }
}
