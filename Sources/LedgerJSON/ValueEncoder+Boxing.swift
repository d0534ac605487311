import Foundation

extension ValueEncoder {
    /// The node for any `Encodable`, with the types these coders treat specially.
    func box(_ value: some Encodable, at path: [any CodingKey]) throws -> EncodingNode {
        switch value {
        case let v as JSONValue:
            return .value(v)
        case let date as Date:
            guard let text = DateText.format(date) else {
                throw failure(.invalidDate, "date \(date.timeIntervalSince1970) seconds after 1970 is outside years 1 to 9999", value, path)
            }
            return .value(.string(text))
        case let uuid as UUID:
            return .value(.string(uuid.uuidString.lowercased()))
        case let url as URL:
            return .value(.string(url.absoluteString))
        case let data as Data:
            return .value(.string(data.base64EncodedString()))
        case is Decimal:
            throw failure(.unsupportedType, "Decimal is not supported: encode amounts as canonical decimal strings", value, path)
        default:
            let encoder = ValueEncoder(codingPath: path, userInfo: userInfo)
            try value.encode(to: encoder)
            return encoder.node ?? .value(.object([:]))
        }
    }

    func integer(_ value: some BinaryInteger, at path: [any CodingKey]) throws -> JSONValue {
        guard let n = Int64(exactly: value) else {
            throw failure(.valueOutOfRange, "\(value) does not fit in Int64", value, path)
        }
        return .integer(n)
    }

    func floating(_ value: Double, at path: [any CodingKey]) throws -> JSONValue {
        guard let n = Int64(exactly: value) else {
            throw failure(.nonIntegralNumber, "\(value) is not a whole number within Int64; exact quantities must not be floating point", value, path)
        }
        return .integer(n)
    }

    func failure(_ code: JSONCodingError.Code, _ reason: String, _ value: Any, _ path: [any CodingKey]) -> EncodingError {
        JSONCodingError(code: code, path: JSONPath(codingPath: path), reason: reason).asEncodingError(value, codingPath: path)
    }
}
