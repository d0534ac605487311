/// Rows in COPY's binary format (`COPY … FROM STDIN WITH (FORMAT binary)`).
///
/// The server skips parsing text for each integer, UUID, timestamp and byte string, and
/// the client skips escaping and hex-encoding them: the cheapest way to send many rows.
/// Each field's encoding must match its column's type exactly; the methods are named
/// after the PostgreSQL type they write.
public struct PostgresBinaryCopyRows: Sendable {
    public private(set) var bytes: [UInt8]
    public private(set) var rowCount = 0
    private var finished = false

    /// Microseconds between the Unix epoch and PostgreSQL's, 2000-01-01T00:00:00Z.
    static let postgresEpochOffset: Int64 = 946_684_800_000_000

    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity + 32)
        bytes.append(contentsOf: Array("PGCOPY\n".utf8))
        bytes.append(contentsOf: [0xFF, 0x0D, 0x0A, 0x00])
        appendInt32(0)  // flags
        appendInt32(0)  // header extension length
    }

    /// Starts a row of `fields` columns.
    public mutating func startRow(fields: Int) {
        appendInt16(Int16(fields))
        rowCount += 1
    }

    public mutating func null() { appendInt32(-1) }

    public mutating func int8(_ value: Int64) {
        appendInt32(8)
        appendInt64(value)
    }

    public mutating func int8(_ value: Int64?) {
        guard let value else { return null() }
        int8(value)
    }

    public mutating func int4(_ value: Int32) {
        appendInt32(4)
        appendInt32(value)
    }

    /// `numeric` holding the integer `value`: base-10,000 digits, most significant first,
    /// with the weight of the first and no scale (`numeric_recv`'s format; trailing zero
    /// digits are left out, as `numeric_send` leaves them out).
    public mutating func numeric(_ value: Int128) {
        var magnitude = value.magnitude
        // An Int128 has at most 39 decimal digits: 10 base-10,000 digits.
        var digits: [Int16] = []
        digits.reserveCapacity(10)
        while magnitude > 0 {
            digits.append(Int16(magnitude % 10_000))
            magnitude /= 10_000
        }
        let weight = Int16(max(0, digits.count - 1))
        var trailing = 0
        while trailing < digits.count && digits[trailing] == 0 { trailing += 1 }
        let kept = digits.count - trailing
        appendInt32(Int32(8 + 2 * kept))
        appendInt16(Int16(kept))
        appendInt16(kept == 0 ? 0 : weight)
        appendInt16(value < 0 ? 0x4000 : 0)
        appendInt16(0)
        for digit in digits[trailing...].reversed() { appendInt16(digit) }
    }

    public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            appendInt32(Int32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func text(_ value: String?) {
        guard let value else { return null() }
        text(value)
    }

    /// `jsonb`: a version byte (1) followed by the JSON text.
    public mutating func jsonb(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            appendInt32(Int32(utf8.count + 1))
            bytes.append(1)
            bytes.append(contentsOf: utf8)
        }
    }

    /// `uuid`: its 16 bytes.
    public mutating func uuid(_ value: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                                        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) {
        appendInt32(16)
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    /// `timestamptz` from microseconds since the Unix epoch.
    public mutating func timestamptz(unixMicroseconds: Int64) {
        appendInt32(8)
        appendInt64(unixMicroseconds - Self.postgresEpochOffset)
    }

    public mutating func bytea(_ value: [UInt8]) {
        appendInt32(Int32(value.count))
        bytes.append(contentsOf: value)
    }

    public mutating func bytea(_ value: [UInt8]?) {
        guard let value else { return null() }
        bytea(value)
    }

    /// Hands over the bytes written so far and starts an empty buffer of the same
    /// capacity, for a stream sent in pieces (`PostgresConnection.copyIn(_:flushingAt:_:)`).
    public mutating func drain() -> [UInt8] {
        var next: [UInt8] = []
        next.reserveCapacity(bytes.capacity)
        swap(&next, &bytes)
        return next
    }

    /// The bytes that open every binary COPY stream (`init` writes them first).
    public static let header: [UInt8] = PostgresBinaryCopyRows().bytes

    /// The bytes that end every binary COPY stream (`finish` writes them last).
    public static let trailer: [UInt8] = [0xFF, 0xFF]

    /// The stream with its trailer; call once, after the last row.
    public mutating func finish() {
        guard !finished else { return }
        appendInt16(-1)
        finished = true
    }

    private mutating func appendInt16(_ v: Int16) {
        let b = UInt16(bitPattern: v).bigEndian
        withUnsafeBytes(of: b) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendInt32(_ v: Int32) {
        let b = UInt32(bitPattern: v).bigEndian
        withUnsafeBytes(of: b) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendInt64(_ v: Int64) {
        let b = UInt64(bitPattern: v).bigEndian
        withUnsafeBytes(of: b) { bytes.append(contentsOf: $0) }
    }
}
