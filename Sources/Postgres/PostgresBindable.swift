import Foundation

/// A value that can be sent as a query parameter, in PostgreSQL's text format.
///
/// Every value reaches the server through `PQexecParams` parameters, never through SQL
/// text, so a value can never change the meaning of a statement.
public protocol PostgresBindable: Sendable {
    /// The text form of the value, or `nil` for SQL `NULL`.
    var postgresText: String? { get }
}

extension String: PostgresBindable { public var postgresText: String? { self } }
extension Substring: PostgresBindable { public var postgresText: String? { String(self) } }
extension Int: PostgresBindable { public var postgresText: String? { String(self) } }
extension Int64: PostgresBindable { public var postgresText: String? { String(self) } }
extension Int32: PostgresBindable { public var postgresText: String? { String(self) } }
extension Int128: PostgresBindable { public var postgresText: String? { String(self) } }
extension Bool: PostgresBindable { public var postgresText: String? { self ? "t" : "f" } }
extension UUID: PostgresBindable { public var postgresText: String? { uuidString.lowercased() } }

extension Optional: PostgresBindable where Wrapped: PostgresBindable {
    public var postgresText: String? { self?.postgresText }
}

/// `bytea`, sent in hex form.
public struct PostgresBytes: PostgresBindable, Hashable {
    public var bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var postgresText: String? {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 2 + bytes.count * 2) { out in
            out[0] = UInt8(ascii: "\\")
            out[1] = UInt8(ascii: "x")
            var i = 2
            for b in bytes {
                out[i] = digits[Int(b >> 4)]
                out[i + 1] = digits[Int(b & 0x0f)]
                i += 2
            }
            return i
        }
    }
}

/// A one-dimensional `text[]` (or any array the server can cast from text), NULLs allowed.
public struct PostgresTextArray: PostgresBindable {
    public var elements: [String?]
    public init(_ elements: [String?]) { self.elements = elements }
    public init(_ elements: [String]) { self.elements = elements.map { Optional($0) } }

    /// `{"a","b\"c",NULL}`: every element quoted, `"` and `\` escaped by a backslash. Written into bytes,
    /// as a batch of projections sends arrays of thousands of elements.
    public var postgresText: String? {
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (i, element) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            guard let element else {
                out.append(contentsOf: "NULL".utf8)
                continue
            }
            out.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}

/// Literal SQL NULL of any type.
public struct PostgresNull: PostgresBindable {
    public init() {}
    public var postgresText: String? { nil }
}
