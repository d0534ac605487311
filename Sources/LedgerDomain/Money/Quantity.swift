import LedgerJSON

/// A count of units or bytes that sums may take past `Int64`: exact, checked, and in JSON
/// a plain integer (PostgreSQL's `jsonb` and `numeric` hold any size). See `Millicredits`
/// for why 128 bits cannot overflow.
public struct Quantity: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    public let value: Int128

    public init(_ value: Int128) { self.value = value }
    public init(_ value: Int64) { self.value = Int128(value) }
    public init(integerLiteral value: Int64) { self.value = Int128(value) }

    public static let zero = Quantity(Int128(0))

    /// The decimal text PostgreSQL's `numeric` prints for an integer: `-` and digits.
    public init?(text: String) {
        guard let value = Int128(text), String(value) == text else { return nil }
        self.value = value
    }

    public var description: String { String(value) }
    public var int64: Int64? { Int64(exactly: value) }

    public static func < (a: Quantity, b: Quantity) -> Bool { a.value < b.value }

    public static func + (a: Quantity, b: Quantity) throws(MoneyError) -> Quantity {
        let (r, o) = a.value.addingReportingOverflow(b.value)
        guard !o else { throw MoneyError(code: .overflow, message: "\(a) + \(b) overflows") }
        return Quantity(r)
    }

    public static func - (a: Quantity, b: Quantity) throws(MoneyError) -> Quantity {
        let (r, o) = a.value.subtractingReportingOverflow(b.value)
        guard !o else { throw MoneyError(code: .overflow, message: "\(a) - \(b) overflows") }
        return Quantity(r)
    }

    public init(from decoder: any Decoder) throws {
        let json = try decoder.singleValueContainer().decode(JSONValue.self)
        switch json {
        case .integer(let n): self.value = Int128(n)
        case .decimal(let text) where Int128(text) != nil && String(Int128(text)!) == text: self.value = Int128(text)!
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected an integer, got \(json.compactText())"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let small = int64 {
            try container.encode(small)
        } else {
            try container.encode(JSONValue.decimal(String(value)))
        }
    }
}
