/// Why `JSONValueEncoder` or `JSONValueDecoder` could not convert a value, and where.
///
/// `message` names the coding path first: "data.amount: expected a string, found an
/// integer". Inside the coders, failures travel as the standard `EncodingError` and
/// `DecodingError` (so `init(from:)` code that catches those keeps working) carrying this
/// error as `underlyingError`; the coders' entry points throw this type.
public struct JSONCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The JSON has another kind of value than the Swift type needs.
        public static let typeMismatch = Code("type_mismatch")
        /// A required key is absent.
        public static let missingKey = Code("missing_key")
        /// An array has fewer elements than the Swift type reads.
        public static let missingElement = Code("missing_element")
        /// A number does not fit the integer type (encoding: does not fit `Int64`).
        public static let valueOutOfRange = Code("value_out_of_range")
        /// A floating-point value with a fraction, or infinite or NaN: money never floats.
        public static let nonIntegralNumber = Code("non_integral_number")
        /// A date that is not ISO 8601 (`2026-11-29T12:00:00.123456Z`) or lies outside
        /// years 1 to 9999.
        public static let invalidDate = Code("invalid_date")
        /// A string that is not a UUID.
        public static let invalidUUID = Code("invalid_uuid")
        /// A string that is not a URL, or not base64 for `Data`.
        public static let invalidString = Code("invalid_string")
        /// A type these coders refuse on purpose (`Decimal`: amounts cross JSON as
        /// canonical decimal strings).
        public static let unsupportedType = Code("unsupported_type")
        /// A value the type's own `init(from:)`/`encode(to:)` refused.
        public static let invalidValue = Code("invalid_value")
    }

    public let code: Code
    public let path: JSONPath
    /// What is wrong, without the path.
    public let reason: String

    public init(code: Code, path: JSONPath, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// The path and the reason, for people.
    public var message: String { "\(path.label): \(reason)" }

    public var description: String { "\(code): \(message)" }
}
