import Foundation

/// The `Encoder` behind `JSONValueEncoder`: one per encoded value that has its own
/// `encode(to:)`, writing into `node`.
final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    var node: EncodingNode?

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer(encoder: self, box: objectBox(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, box: arrayBox(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self, codingPath: codingPath)
    }

    /// The object being written; a class hierarchy may ask for it more than once.
    private func objectBox() -> EncodingNode.ObjectBox {
        if case .object(let box)? = node { return box }
        precondition(node == nil, "\(JSONPath(codingPath: codingPath).label): asked for a keyed container after encoding another kind of value")
        let box = EncodingNode.ObjectBox()
        node = .object(box)
        return box
    }

    private func arrayBox() -> EncodingNode.ArrayBox {
        if case .array(let box)? = node { return box }
        precondition(node == nil, "\(JSONPath(codingPath: codingPath).label): asked for an unkeyed container after encoding another kind of value")
        let box = EncodingNode.ArrayBox()
        node = .array(box)
        return box
    }
}
