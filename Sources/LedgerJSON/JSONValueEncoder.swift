/// Turns `Encodable` values into `JSONValue`s directly, without JSON text in between.
///
/// Conventions (the same as `JSONValueDecoder` reads):
/// - Integers of every width become `.integer`; a value outside `Int64` (a large
///   `UInt64`) is an error, never wrapped or turned into a decimal.
/// - `Double` and `Float` are accepted only when whole and within `Int64`, and then
///   encode as `.integer`: money never floats, and a fraction would be silently rounded
///   somewhere. NaN, infinities and fractions are errors (`non_integral_number`).
/// - `Decimal` is refused (`unsupported_type`): amounts cross JSON as canonical decimal
///   strings (docs/billing.md, "Money").
/// - `Date` becomes `"2026-11-29T12:00:00.123456Z"` (UTC, always six fraction digits,
///   rounded to the microsecond; exact for dates within about 136 years of 2001, beyond
///   which `Date` itself holds less than microseconds). Years outside 1...9999 are errors.
/// - `UUID` becomes its lowercase string; `URL` its absolute string; `Data` base64.
/// - `nil` optionals in synthesized `Codable` are omitted (`encodeIfPresent`); `nil`
///   elements of arrays and dictionaries become `null`.
/// - A `JSONValue` is copied as is.
public struct JSONValueEncoder: Sendable {
    /// Passed to `encode(to:)` implementations as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Encodes `value`. Throws `JSONCodingError` for everything these conventions refuse
    /// or a type's `encode(to:)` reports as `EncodingError`; any other error thrown by a
    /// type's `encode(to:)` passes through unchanged.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        try node(value).resolve()
    }

    /// Encodes `value` straight to compact JSON text, the bytes
    /// `encode(value).compactBytes(sortedKeys:)` gives, without building the value.
    public func encodeCompactBytes(_ value: some Encodable, sortedKeys: Bool = true) throws -> [UInt8] {
        let node = try node(value)
        return ByteWriter.withWriter { (out: inout ByteWriter) in
            node.writeCompact(sortedKeys: sortedKeys, to: &out)
            return out.withBytes { Array($0) }
        }
    }

    private func node(_ value: some Encodable) throws -> EncodingNode {
        let encoder = ValueEncoder(codingPath: [], userInfo: userInfo)
        do {
            return try encoder.box(value, at: [])
        } catch let error as EncodingError {
            throw JSONCodingError(error)
        }
    }
}

extension JSONCodingError {
    /// The error an `EncodingError` stands for: the one these coders put inside it, or
    /// `invalid_value` with the error's own description.
    init(_ error: EncodingError) {
        switch error {
        case .invalidValue(_, let context):
            if let inner = context.underlyingError as? JSONCodingError {
                self = inner
            } else {
                self.init(code: .invalidValue, path: JSONPath(codingPath: context.codingPath), reason: context.debugDescription)
            }
        @unknown default:
            self.init(code: .invalidValue, path: JSONPath(), reason: "\(error)")
        }
    }

    /// This error wrapped as the `EncodingError` that carries it through `encode(to:)`.
    func asEncodingError(_ value: Any, codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: message, underlyingError: self))
    }
}
