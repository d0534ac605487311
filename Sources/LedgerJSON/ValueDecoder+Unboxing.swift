import Foundation

extension ValueDecoder {
    /// Decodes a `T` from `value`, found under `key` of this decoder, with the types these
    /// coders treat specially.
    func unbox<T: Decodable>(_ type: T.Type, from value: JSONValue, key: (any CodingKey)?) throws -> T {
        let path = { self.path(key) }
        if T.self == JSONValue.self { return value as! T }
        if T.self == Date.self { return try date(from: value, at: path()) as! T }
        if T.self == UUID.self {
            guard let uuid = UUID(uuidString: try string(from: value, at: path())) else {
                throw failure(.invalidUUID, "expected a UUID, found \(value.compactText().debugDescription)", at: path())
            }
            return uuid as! T
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(from: value, at: path())) else {
                throw failure(.invalidString, "expected a URL, found \(value.compactText().debugDescription)", at: path())
            }
            return url as! T
        }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try string(from: value, at: path())) else {
                throw failure(.invalidString, "expected base64 data", at: path())
            }
            return data as! T
        }
        if T.self == Decimal.self {
            throw failure(.unsupportedType, "Decimal is not supported: decode amounts from canonical decimal strings", at: path())
        }
        return try T(from: ValueDecoder(value: value, parent: self, key: key))
    }

    func bool(from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch("a boolean", found: value, at: path()) }
        return b
    }

    func string(from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let s) = value else { throw mismatch("a string", found: value, at: path()) }
        return s
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> T {
        guard case .integer(let n) = value else { throw mismatch("an integer", found: value, at: path()) }
        guard let result = T(exactly: n) else { throw failure(.valueOutOfRange, "\(n) does not fit in \(T.self)", at: path()) }
        return result
    }

    /// `Double` and `Float` carry whole numbers only, as the encoder writes them.
    func floating<T: BinaryFloatingPoint>(_ type: T.Type, from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> T {
        guard case .integer(let n) = value else {
            throw mismatch("an integer (floating-point fields carry whole numbers only)", found: value, at: path())
        }
        guard let result = T(exactly: n) else { throw failure(.valueOutOfRange, "\(n) cannot be held exactly by \(T.self)", at: path()) }
        return result
    }

    func date(from value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Date {
        let text = try string(from: value, at: path())
        guard let date = DateText.parse(text) else {
            throw failure(.invalidDate, "expected an ISO 8601 timestamp such as 2026-11-29T12:00:00.123456Z, found \(text.debugDescription)", at: path())
        }
        return date
    }
}
