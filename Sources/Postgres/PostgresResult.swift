import CLibPQ

/// The rows of one command, owned until the last reference goes.
public final class PostgresResult: @unchecked Sendable {
    // Immutable after creation and only read through libpq's const accessors, hence Sendable.
    @usableFromInline let result: OpaquePointer

    /// How the server sent the values: as text (libpq's default), or in each type's
    /// binary form.
    public enum Format: Int32, Sendable {
        case text = 0
        case binary = 1
    }

    init(taking result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    public var rowCount: Int { Int(PQntuples(result)) }
    public var columnCount: Int { Int(PQnfields(result)) }
    /// Rows touched by an INSERT/UPDATE/DELETE, 0 when not applicable.
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    public func columnName(_ column: Int) -> String { String(cString: PQfname(result, Int32(column))) }

    @inlinable
    public func isNull(row: Int, column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    public func format(ofColumn column: Int) -> Format { PQfformat(result, Int32(column)) == 1 ? .binary : .text }

    public func string(row: Int, column: Int) -> String? {
        if isNull(row: row, column: column) { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        let value = PQgetvalue(result, Int32(row), Int32(column))!
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Lends the raw text bytes of a value without copying them. Inlinable: a page is
    /// written from a few hundred of these.
    @inlinable
    public func withUnsafeValue<T>(row: Int, column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        if isNull(row: row, column: column) { return try body(nil) }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        let value = PQgetvalue(result, Int32(row), Int32(column))!
        return try value.withMemoryRebound(to: UInt8.self, capacity: length) {
            try body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    public subscript(row: Int) -> PostgresRow { PostgresRow(result: self, index: row) }

    public var rows: [PostgresRow] { (0..<rowCount).map { PostgresRow(result: self, index: $0) } }
}

/// One row of a `PostgresResult`, with typed accessors over the text format.
public struct PostgresRow: Sendable {
    public let result: PostgresResult
    public let index: Int

    public func isNull(_ column: Int) -> Bool { result.isNull(row: index, column: column) }
    public func string(_ column: Int) -> String? { result.string(row: index, column: column) }

    public func int64(_ column: Int) -> Int64? {
        result.withUnsafeValue(row: index, column: column) { bytes in
            guard let bytes else { return nil }
            return parseInt64(bytes)
        }
    }

    public func int(_ column: Int) -> Int? { int64(column).map(Int.init) }

    public func bool(_ column: Int) -> Bool? {
        result.withUnsafeValue(row: index, column: column) { bytes in
            guard let bytes, let first = bytes.first else { return nil }
            return first == UInt8(ascii: "t")
        }
    }

    /// Decodes a `bytea` in the server's hex output format (`\x…`).
    public func bytes(_ column: Int) -> [UInt8]? {
        result.withUnsafeValue(row: index, column: column) { text in
            guard let text, text.count >= 2, text.count % 2 == 0, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else {
                return nil
            }
            let count = (text.count - 2) / 2
            var valid = true
            let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                for o in 0..<count {
                    guard let hi = hexValue(text[2 + 2 * o]), let lo = hexValue(text[3 + 2 * o]) else {
                        valid = false
                        break
                    }
                    buffer[o] = hi << 4 | lo
                    initialized = o + 1
                }
            }
            return valid ? out : nil
        }
    }

    /// Non-optional accessors that throw `unexpectedResult` on NULL or a bad format.
    public func requireString(_ column: Int) throws -> String {
        guard let v = string(column) else { throw missing(column) }
        return v
    }

    public func requireInt64(_ column: Int) throws -> Int64 {
        guard let v = int64(column) else { throw missing(column) }
        return v
    }

    /// An integer column of any size (`bigint`, or an integral `numeric` such as a sum),
    /// exactly; nil when NULL or not an integer within 128 bits.
    public func int128(_ column: Int) -> Int128? {
        guard let text = string(column), let value = Int128(text), String(value) == text else { return nil }
        return value
    }

    public func requireInt128(_ column: Int) throws -> Int128 {
        guard let value = int128(column) else { throw missing(column) }
        return value
    }

    public func requireBytes(_ column: Int) throws -> [UInt8] {
        guard let v = bytes(column) else { throw missing(column) }
        return v
    }

    private func missing(_ column: Int) -> PostgresError {
        PostgresError(code: .unexpectedResult, message: "column \(result.columnName(column)) is NULL or not in the expected format")
    }
}

private func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case 48...57: return c - 48
    case 97...102: return c - 87
    case 65...70: return c - 55
    default: return nil
    }
}

private func parseInt64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard !bytes.isEmpty else { return nil }
    var i = 0
    var negative = false
    if bytes[0] == UInt8(ascii: "-") { negative = true; i = 1 }
    guard i < bytes.count else { return nil }
    var value: Int64 = 0
    while i < bytes.count {
        let d = bytes[i] &- 48
        guard d < 10 else { return nil }
        let (m, o1) = value.multipliedReportingOverflow(by: 10)
        let (s, o2) = negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
        if o1 || o2 { return nil }
        value = s
        i += 1
    }
    return value
}
