/// Why a JSON text was refused, and where.
///
/// `code` is stable and meant for programs (API error bodies, tests); `message` is for
/// people and names the line and column, e.g. "expected ',' or '}' after an object member
/// at line 3, column 7".
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The text ended where a value, a string's end or a container's end was still due.
        public static let unexpectedEndOfInput = Code("unexpected_end_of_input")
        /// A byte that cannot start or continue what was expected at that point.
        public static let unexpectedCharacter = Code("unexpected_character")
        /// A string with no closing quote.
        public static let unterminatedString = Code("unterminated_string")
        /// A control character (U+0000 to U+001F) written raw inside a string.
        public static let unescapedControlCharacter = Code("unescaped_control_character")
        /// A backslash followed by something other than `"\/bfnrtu`.
        public static let invalidEscape = Code("invalid_escape")
        /// `\u` not followed by four hexadecimal digits.
        public static let invalidUnicodeEscape = Code("invalid_unicode_escape")
        /// `\u0000`, when `JSONParseOptions.allowsNUL` is false.
        public static let nulCharacter = Code("nul_character")
        /// A `\u` escape of a UTF-16 surrogate that is not part of a high-low pair.
        public static let loneSurrogate = Code("lone_surrogate")
        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Code("invalid_utf8")
        /// A number that breaks the JSON grammar (leading zeros, a bare `-`, `1.`, `1e`, …).
        public static let invalidNumber = Code("invalid_number")
        /// A number PostgreSQL's `numeric` cannot hold (more than 131072 integer digits,
        /// more than 16383 fraction digits, or an exponent of magnitude 1073741823 or more).
        public static let numberOutOfRange = Code("number_out_of_range")
        /// A number whose exponent inflates its canonical text beyond `JSONParseOptions.maxNumberGrowth`.
        public static let numberTooLong = Code("number_too_long")
        /// Containers nested deeper than `JSONParseOptions.maxDepth`.
        public static let tooDeep = Code("too_deep")
        /// Something other than whitespace after the top-level value.
        public static let trailingData = Code("trailing_data")
        /// A key repeated in one object, when `JSONParseOptions.duplicateKeys` is `.reject`.
        public static let duplicateKey = Code("duplicate_key")
        /// Two keys of one object that differ in bytes but are canonically equivalent
        /// Unicode (e.g. "é" precomposed and decomposed). PostgreSQL keeps both; a Swift
        /// `[String: JSONValue]` cannot, so the document is refused rather than altered.
        public static let equivalentKeys = Code("equivalent_keys")
    }

    public let code: Code
    /// Zero-based byte offset of the offending byte in the input.
    public let offset: Int
    /// One-based line (lines are ended by U+000A).
    public let line: Int
    /// One-based column, counted in Unicode scalars from the start of the line.
    public let column: Int
    /// What went wrong, without the position.
    public let reason: String

    public init(code: Code, offset: Int, line: Int, column: Int, reason: String) {
        self.code = code
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The reason with its position, for people.
    public var message: String { "\(reason) at line \(line), column \(column)" }

    public var description: String { "\(code): \(message)" }
}
