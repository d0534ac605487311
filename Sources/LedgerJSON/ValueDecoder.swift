/// The `Decoder` behind `JSONValueDecoder`: one per decoded value that has its own
/// `init(from:)`.
///
/// A decoder knows its parent and its key rather than its whole coding path, and paths
/// are built only for an error: decoding a field allocates no path.
final class ValueDecoder: Decoder {
    let value: JSONValue
    let userInfo: [CodingUserInfoKey: Any]
    private let parent: ValueDecoder?
    private let key: (any CodingKey)?

    /// A root decoder.
    init(value: JSONValue, userInfo: [CodingUserInfoKey: Any]) {
        self.value = value
        self.userInfo = userInfo
        parent = nil
        key = nil
    }

    /// The decoder of `value`, found under `key` of `parent` (no key: the same path).
    init(value: JSONValue, parent: ValueDecoder, key: (any CodingKey)?) {
        self.value = value
        self.userInfo = parent.userInfo
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        guard let parent else { return [] }
        guard let key else { return parent.codingPath }
        return parent.codingPath + [key]
    }

    /// The path of `key` under this decoder.
    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch("an object", found: value, at: codingPath) }
        return KeyedDecodingContainer(KeyedContainer(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch("an array", found: value, at: codingPath) }
        return UnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self, value: value)
    }

    func mismatch(_ expected: String, found value: JSONValue, at path: @autoclosure () -> [any CodingKey]) -> DecodingError {
        failure(.typeMismatch, "expected \(expected), found \(value.kindDescription)", at: path())
    }

    func failure(_ code: JSONCodingError.Code, _ reason: String, at path: [any CodingKey]) -> DecodingError {
        JSONCodingError(code: code, path: JSONPath(codingPath: path), reason: reason).asDecodingError(codingPath: path)
    }
}
