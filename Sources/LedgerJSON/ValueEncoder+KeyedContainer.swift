extension ValueEncoder {
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ValueEncoder
        let box: EncodingNode.ObjectBox
        let codingPath: [any CodingKey]

        private func set(_ value: JSONValue, _ key: Key) { box[key.stringValue] = .value(value) }
        private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(try encoder.floating(value, at: path(key)), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(try encoder.floating(Double(value), at: path(key)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(try encoder.integer(value, at: path(key)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try encoder.integer(value, at: path(key)), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box[key.stringValue] = try encoder.box(value, at: path(key))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = EncodingNode.ObjectBox()
            box[key.stringValue] = .object(child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, box: child, codingPath: path(key)))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = EncodingNode.ArrayBox()
            box[key.stringValue] = .array(child)
            return UnkeyedContainer(encoder: encoder, box: child, codingPath: path(key))
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: NamedCodingKey.super) }

        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

        private func superEncoder(named key: any CodingKey) -> any Encoder {
            let sub = ValueEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfo)
            box[key.stringValue] = .deferred(sub)
            return sub
        }
    }
}
