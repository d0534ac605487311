/// Writes compact JSON straight to bytes, member by member, for the few answers whose
/// size makes `Codable`'s walk the cost of the request (a journal page: 50 entries of 13
/// fields cost three times the statement that read them).
///
/// The bytes are those `JSONValueEncoder.encodeCompactBytes` writes for the same value
/// (strings escaped the same way, integers in plain decimal) provided the caller writes
/// the members of each object in sorted order and leaves out the absent optionals as the
/// synthesized `Codable` conformance does. A type that offers both keeps a property
/// test that compares them.
public struct JSONStreamWriter: ~Copyable {
    var out: ByteWriter
    // Whether the next member or element needs a comma before it, and whether a key was
    // just written (so the value that follows needs none).
    private var needsComma = false
    private var afterKey = false

    init(out: consuming ByteWriter) {
        self.out = out
    }

    /// Runs `body` with a writer and returns the bytes it wrote.
    public static func bytes<E: Error>(_ body: (inout JSONStreamWriter) throws(E) -> Void) throws(E) -> [UInt8] {
        // A page of 50 journal entries is about 18 KB: it fits in the scratch memory, so
        // the only heap allocation is the returned array.
        let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32_768) { scratch in
            var writer = JSONStreamWriter(out: ByteWriter(scratch: scratch))
            return Result { () throws(E) -> [UInt8] in
                try body(&writer)
                return writer.out.withBytes { Array($0) }
            }
        }
        return try result.get()
    }

    /// An object whose members `body` writes.
    public mutating func object<E: Error>(_ body: (inout JSONStreamWriter) throws(E) -> Void) throws(E) {
        try container(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    /// An array whose elements `body` writes.
    public mutating func array<E: Error>(_ body: (inout JSONStreamWriter) throws(E) -> Void) throws(E) {
        try container(UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    private mutating func container<E: Error>(_ open: UInt8, _ close: UInt8,
                                              _ body: (inout JSONStreamWriter) throws(E) -> Void) throws(E) {
        beginValue()
        out.append(open)
        needsComma = false
        try body(&self)
        out.append(close)
        needsComma = true
    }

    /// The key of the next member; its value is what is written next.
    public mutating func key(_ name: StaticString) {
        if needsComma { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        out.append(name)
        out.append(UInt8(ascii: "\""), UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        beginValue()
        JSONBytes.appendQuoted(value, to: &out)
        needsComma = true
    }

    /// A string given as its UTF-8 bytes, such as a text value lent by libpq, written
    /// without making a `String` of it. The bytes must be valid UTF-8.
    public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        beginValue()
        JSONBytes.appendQuoted(utf8: bytes, to: &out)
        needsComma = true
    }

    public mutating func integer(_ value: Int64) {
        beginValue()
        JSONBytes.appendInteger(value, to: &out)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        out.append(value ? "true" : "false")
        needsComma = true
    }

    public mutating func null() {
        beginValue()
        out.append("null")
        needsComma = true
    }

    /// The member `name` with a string value, or `null` when `value` is nil, as `encode`
    /// (not `encodeIfPresent`) writes an optional: for a member that is always there.
    public mutating func member(_ name: StaticString, orNull value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    /// The member `name` with a string value, or nothing when `value` is nil, as a
    /// synthesized `encodeIfPresent` does.
    public mutating func member(_ name: StaticString, ifPresent value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// The member `name` with a string value given as UTF-8 bytes, or nothing when nil.
    public mutating func member(_ name: StaticString, ifPresent utf8: UnsafeBufferPointer<UInt8>?) {
        guard let utf8 else { return }
        key(name)
        string(utf8: utf8)
    }

    public mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    public mutating func member(_ name: StaticString, _ value: Int64) {
        key(name)
        integer(value)
    }

    public mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    public mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        array { w in for v in values { w.string(v) } }
    }

    @inline(__always)
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
        } else if needsComma {
            out.append(UInt8(ascii: ","))
        }
    }
}
