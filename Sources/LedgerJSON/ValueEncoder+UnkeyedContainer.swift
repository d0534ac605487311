extension ValueEncoder {
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ValueEncoder
        let box: EncodingNode.ArrayBox
        let codingPath: [any CodingKey]

        var count: Int { box.elements.count }

        private func append(_ value: JSONValue) { box.elements.append(.value(value)) }
        private var nextPath: [any CodingKey] { codingPath + [IndexCodingKey(count)] }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(try encoder.floating(value, at: nextPath)) }
        mutating func encode(_ value: Float) throws { append(try encoder.floating(Double(value), at: nextPath)) }
        mutating func encode(_ value: Int) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: Int8) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: Int16) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: Int32) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: Int64) throws { append(.integer(value)) }
        mutating func encode(_ value: UInt) throws { append(try encoder.integer(value, at: nextPath)) }
        mutating func encode(_ value: UInt8) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: UInt16) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: UInt32) throws { append(.integer(Int64(value))) }
        mutating func encode(_ value: UInt64) throws { append(try encoder.integer(value, at: nextPath)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            box.elements.append(try encoder.box(value, at: nextPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = EncodingNode.ObjectBox()
            let path = nextPath
            box.elements.append(.object(child))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, box: child, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = EncodingNode.ArrayBox()
            let path = nextPath
            box.elements.append(.array(child))
            return UnkeyedContainer(encoder: encoder, box: child, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let sub = ValueEncoder(codingPath: nextPath, userInfo: encoder.userInfo)
            box.elements.append(.deferred(sub))
            return sub
        }
    }
}
