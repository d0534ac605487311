extension ValueDecoder {
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: ValueDecoder
        let elements: [JSONValue]
        var codingPath: [any CodingKey] { decoder.codingPath }
        private(set) var currentIndex = 0

        init(decoder: ValueDecoder, elements: [JSONValue]) {
            self.decoder = decoder
            self.elements = elements
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private var path: [any CodingKey] { decoder.path(IndexCodingKey(currentIndex)) }

        /// The current element; the index moves on only after it decoded, so a failed
        /// attempt can be retried as another type.
        private mutating func next<T>(_ body: (ValueDecoder, JSONValue, IndexCodingKey) throws -> T) throws -> T {
            guard !isAtEnd else {
                throw decoder.failure(.missingElement, "expected a value, found the end of the array", at: path)
            }
            let result = try body(decoder, elements[currentIndex], IndexCodingKey(currentIndex))
            currentIndex += 1
            return result
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw decoder.failure(.missingElement, "expected a value, found the end of the array", at: path) }
            if elements[currentIndex] == .null {
                currentIndex += 1
                return true
            }
            return false
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.bool(from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: String.Type) throws -> String { try next { try $0.string(from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.floating(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.floating(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.integer(type, from: $1, at: $0.path($2)) } }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try next { try $0.unbox(type, from: $1, key: $2) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next { try ValueDecoder(value: $1, parent: $0, key: $2).container(keyedBy: type) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next { try ValueDecoder(value: $1, parent: $0, key: $2).unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder {
            try next { ValueDecoder(value: $1, parent: $0, key: $2) }
        }
    }
}
