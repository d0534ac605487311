extension ValueDecoder {
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ValueDecoder
        let members: [String: JSONValue]
        var codingPath: [any CodingKey] { decoder.codingPath }

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func value(_ key: Key) throws -> JSONValue {
            guard let v = members[key.stringValue] else {
                throw decoder.failure(.missingKey, "required key is missing", at: path(key))
            }
            return v
        }

        private func path(_ key: Key) -> [any CodingKey] { decoder.path(key) }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(from: value(key), at: path(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(from: value(key), at: path(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.floating(type, from: value(key), at: path(key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.floating(type, from: value(key), at: path(key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(type, from: value(key), at: path(key)) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(type, from: value(key), at: path(key)) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.unbox(type, from: value(key), key: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try ValueDecoder(value: value(key), parent: decoder, key: key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ValueDecoder(value: value(key), parent: decoder, key: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            ValueDecoder(value: members[NamedCodingKey.super.stringValue] ?? .null, parent: decoder, key: NamedCodingKey.super)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            ValueDecoder(value: members[key.stringValue] ?? .null, parent: decoder, key: key)
        }
    }
}
