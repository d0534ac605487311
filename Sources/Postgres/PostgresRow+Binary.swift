import Glibc

// Accessors for values sent in binary form (`PostgresResult.Format.binary`): integers big
// endian, a `uuid` as its 16 bytes, a `bytea` as itself, a `timestamptz` as microseconds
// since 2000-01-01 UTC, a `text` as its UTF-8. Each checks the column's format and the
// value's length, so that a text column read as binary is an error, not a garbage value.

extension PostgresRow {
    /// An `int8` sent in binary.
    public func binaryInt64(_ column: Int) throws -> Int64? {
        try binary(column, length: 8) { bytes in
            bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
    }

    public func requireBinaryInt64(_ column: Int) throws -> Int64 {
        guard let value = try binaryInt64(column) else { throw nullValue(column) }
        return value
    }

    /// A `uuid` sent in binary: its 16 bytes, in order (the layout of Foundation's
    /// `uuid_t`), without an array to allocate for each row read.
    public func requireBinaryUUID(_ column: Int) throws -> UUIDBytes {
        let value = try binary(column, length: 16) { b -> UUIDBytes in
            (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        }
        guard let value else { throw nullValue(column) }
        return value
    }

    /// A `uuid`'s 16 bytes.
    public typealias UUIDBytes = (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    /// A `bytea` sent in binary: the bytes themselves.
    public func requireBinaryBytes(_ column: Int) throws -> [UInt8] {
        guard let value = try binary(column, length: nil, { Array($0) }) else { throw nullValue(column) }
        return value
    }

    /// A `bytea` of exactly `count` bytes sent in binary, lent to `body` (a fixed-size value
    /// read without an array per row). Not generic: called from other modules, a generic
    /// function looks its types up at run time on every call.
    public func withRequiredBinaryBytes(_ column: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        guard try binary(column, length: count, { body(UnsafeRawBufferPointer($0)) }) != nil else { throw nullValue(column) }
    }

    /// A `timestamptz` sent in binary, as microseconds since 1970-01-01 UTC.
    public func requireBinaryTimestampMicroseconds(_ column: Int) throws -> Int64 {
        // The server counts from 2000-01-01: 946,684,800 seconds after the Unix epoch.
        let sinceY2K = try requireBinaryInt64(column)
        let (unix, overflow) = sinceY2K.addingReportingOverflow(946_684_800_000_000)
        guard !overflow else { throw malformed(column, "a timestamp out of range") }
        return unix
    }

    /// A text-like value (`text`, `varchar`) sent in binary, which is its UTF-8.
    public func binaryString(_ column: Int) throws -> String? {
        try binary(column, length: nil) { String(decoding: $0, as: UTF8.self) }
    }

    public func requireBinaryString(_ column: Int) throws -> String {
        guard let value = try binaryString(column) else { throw nullValue(column) }
        return value
    }

    /// A text-like value sent in binary, or `previous` itself when the value has the same
    /// bytes: consecutive rows that repeat a value (an event's metadata, its stream) share
    /// one string rather than allocate and free one each.
    public func requireBinaryString(_ column: Int, reusing previous: String?) throws -> String {
        let value = try binary(column, length: nil) { bytes -> String in
            if let previous, previous.utf8.count == bytes.count,
               previous.utf8.withContiguousStorageIfAvailable({ $0.count == 0 || memcmp($0.baseAddress!, bytes.baseAddress!, $0.count) == 0 }) == true {
                return previous
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let value else { throw nullValue(column) }
        return value
    }

    private func binary<T>(_ column: Int, length: Int?, _ body: (UnsafeBufferPointer<UInt8>) -> T) throws -> T? {
        guard result.format(ofColumn: column) == .binary else { throw malformed(column, "a text value read as binary") }
        return try result.withUnsafeValue(row: index, column: column) { bytes -> T? in
            guard let bytes else { return nil }
            if let length, bytes.count != length {
                throw malformed(column, "\(bytes.count) bytes where \(length) were expected")
            }
            return body(bytes)
        }
    }

    private func nullValue(_ column: Int) -> PostgresError {
        PostgresError(code: .unexpectedResult, message: "column \(result.columnName(column)) is NULL")
    }

    private func malformed(_ column: Int, _ what: String) -> PostgresError {
        PostgresError(code: .unexpectedResult, message: "column \(result.columnName(column)): \(what)")
    }
}
