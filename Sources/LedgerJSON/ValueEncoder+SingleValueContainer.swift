extension ValueEncoder {
    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        let codingPath: [any CodingKey]

        private func set(_ value: JSONValue) { encoder.node = .value(value) }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(try encoder.floating(value, at: codingPath)) }
        mutating func encode(_ value: Float) throws { set(try encoder.floating(Double(value), at: codingPath)) }
        mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: Int64) throws { set(.integer(value)) }
        mutating func encode(_ value: UInt) throws { set(try encoder.integer(value, at: codingPath)) }
        mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
        mutating func encode(_ value: UInt64) throws { set(try encoder.integer(value, at: codingPath)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.node = try encoder.box(value, at: codingPath)
        }
    }
}
