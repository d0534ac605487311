import Foundation

/// A `JSONValue` inside a `Codable` type: copied as is by `JSONValueEncoder` and
/// `JSONValueDecoder`, and written as the JSON it stands for by other coders such as
/// Foundation's `JSONEncoder` and `JSONDecoder`.
///
/// Other coders have no arbitrary-precision number, so `.decimal` travels through
/// Foundation's `Decimal` there: encoding refuses (`EncodingError.invalidValue`) a
/// decimal that `Decimal` would change (`1.50` would become `1.5`, and more than 38
/// digits are lost), and decoding takes numbers as `Int64` when Foundation offers one,
/// else as the `Decimal` it parsed, whose trailing fraction zeros are already gone.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let ours = decoder as? ValueDecoder {
            self = ours.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? container.decode(Int64.self) {
            self = .integer(n)
        } else if let d = try? container.decode(Decimal.self) {
            do {
                self = try JSONValue.number(fromLiteral: d.description)
            } catch {
                throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "number \(d) is not a JSON number", underlyingError: error))
            }
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let ours = encoder as? ValueEncoder {
            ours.node = .value(self)
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let n): try container.encode(n)
        case .decimal(let text):
            guard let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), d.description == text else {
                throw EncodingError.invalidValue(self, EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "decimal \(text) cannot pass through Foundation's Decimal unchanged; write it with JSONValue.compactText or JSONValueEncoder"))
            }
            try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}
