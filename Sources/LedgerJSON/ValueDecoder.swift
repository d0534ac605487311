/// The `Decoder` behind `JSONValueDecoder`: one per decoded value that has its own
/// `init(from:)`.
final class ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object", found: value, at: codingPath) }
        return KeyedDecodingContainer(KeyedContainer(decoder: self, members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch("an array", found: value, at: codingPath) }
        return UnkeyedContainer(decoder: self, elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self, value: value, codingPath: codingPath)
    }

    func mismatch(_ expected: String, found value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        failure(.typeMismatch, "expected \(expected), found \(value.kindDescription)", at: path)
    }

    func failure(_ code: JSONCodingError.Code, _ reason: String, at path: [any CodingKey]) -> DecodingError {
        JSONCodingError(code: code, path: JSONPath(codingPath: path), reason: reason).asDecodingError(codingPath: path)
    }
}
