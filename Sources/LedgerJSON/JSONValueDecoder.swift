/// Turns `JSONValue`s into `Decodable` values directly, reading the conventions
/// `JSONValueEncoder` writes.
///
/// Strict about kinds: a `String` needs a string, a `Bool` a boolean, an integer type an
/// `.integer` that fits it; `Double` and `Float` accept only an `.integer` they hold
/// exactly. `Date` accepts RFC 3339 text with `Z` or an offset and 0 to 9 fraction
/// digits (kept to the microsecond); `UUID` any case; missing keys and `null` both decode
/// as `nil` for optionals.
public struct JSONValueDecoder: Sendable {
    /// Passed to `init(from:)` implementations as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes a `T` from `value`. Throws `JSONCodingError` naming the coding path
    /// ("data.amount: expected a string, found an integer") for everything these
    /// conventions refuse or a type's `init(from:)` reports as `DecodingError`; any other
    /// error thrown by a type's `init(from:)` passes through unchanged.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        do {
            return try ValueDecoder(value: value, userInfo: userInfo).unbox(type, from: value, key: nil)
        } catch let error as DecodingError {
            throw JSONCodingError(error)
        }
    }
}

extension JSONCodingError {
    /// The error a `DecodingError` stands for: the one these coders put inside it, or the
    /// closest code with the error's own description.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            if let inner = context.underlyingError as? JSONCodingError {
                self = inner
                return
            }
            var path = context.codingPath
            let code: Code
            switch error {
            case .typeMismatch, .valueNotFound: code = .typeMismatch
            case .keyNotFound(let key, _): code = .missingKey; path.append(key)
            default: code = .invalidValue
            }
            self.init(code: code, path: JSONPath(codingPath: path), reason: context.debugDescription)
        @unknown default:
            self.init(code: .invalidValue, path: JSONPath(), reason: "\(error)")
        }
    }

    /// This error wrapped as the `DecodingError` that carries it through `init(from:)`.
    func asDecodingError(codingPath: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(codingPath: codingPath, debugDescription: message, underlyingError: self)
        return code == .typeMismatch ? .typeMismatch(Any.self, context) : .dataCorrupted(context)
    }
}
