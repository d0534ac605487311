/// An amount of millicredits: an exact integer whose arithmetic is checked (overflow is
/// an error, never a wrap) and whose text is the canonical decimal string of rule B2.
///
/// 128 bits, so that no sum the ledger can be asked for overflows: deciders keep every
/// amount of an event within `BillingLimits.maximumAmount` (10^18 at most), a log holds
/// fewer than 2^63 events, and 2^63 × 10^18 < 2^123 (docs/billing.md, limits). Columns
/// that sum amounts are `numeric` for the same reason.
public struct Millicredits: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let value: Int128

    public init(_ value: Int128) { self.value = value }
    public init(_ value: Int64) { self.value = Int128(value) }
    public init(_ value: Int) { self.value = Int128(value) }

    public static let zero = Millicredits(0)

    /// Parses a canonical decimal string (B2): optional `-`, then `0` or a digit 1–9
    /// followed by digits; no `+`, no leading zeros, no `-0`, no exponent, no fraction, no
    /// whitespace. Nil for anything else, or for a value outside 128 bits.
    public init?(canonical text: String) {
        let b = Array(text.utf8)
        var i = 0
        var negative = false
        if b.first == UInt8(ascii: "-") { negative = true; i = 1 }
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "0") {
            guard b.count == i + 1, !negative else { return nil }
            self.value = 0
            return
        }
        var v: Int128 = 0
        while i < b.count {
            let d = b[i] &- 48
            guard d < 10 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int128(d)) : m.addingReportingOverflow(Int128(d))
            guard !o1, !o2 else { return nil }
            v = s
            i += 1
        }
        self.value = v
    }

    /// The canonical decimal string (B2).
    public var canonical: String { String(value) }
    public var description: String { canonical }

    public static func < (a: Millicredits, b: Millicredits) -> Bool { a.value < b.value }

    public static func + (a: Millicredits, b: Millicredits) throws(MoneyError) -> Millicredits {
        let (r, o) = a.value.addingReportingOverflow(b.value)
        guard !o else { throw MoneyError(code: .overflow, message: "\(a) + \(b) overflows") }
        return Millicredits(r)
    }

    public static func - (a: Millicredits, b: Millicredits) throws(MoneyError) -> Millicredits {
        let (r, o) = a.value.subtractingReportingOverflow(b.value)
        guard !o else { throw MoneyError(code: .overflow, message: "\(a) - \(b) overflows") }
        return Millicredits(r)
    }

    public static func * (a: Millicredits, n: Int64) throws(MoneyError) -> Millicredits {
        let (r, o) = a.value.multipliedReportingOverflow(by: Int128(n))
        guard !o else { throw MoneyError(code: .overflow, message: "\(a) × \(n) overflows") }
        return Millicredits(r)
    }

    public func negated() throws(MoneyError) -> Millicredits { try Millicredits.zero - self }

    /// The amount as an `Int64`, when it fits (for values the deciders bound).
    public var int64: Int64? { Int64(exactly: value) }

    /// Sums, checked.
    public static func sum(_ amounts: some Sequence<Millicredits>) throws(MoneyError) -> Millicredits {
        var total = Millicredits.zero
        for a in amounts { total = try total + a }
        return total
    }

    /// Crosses JSON as the canonical string, never as a number (B2).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Millicredits(canonical: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected an amount of millicredits as a canonical decimal string such as \"1500\" or \"-25\", got \(text.debugDescription)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonical)
    }
}

/// An arithmetic error on money.
public struct MoneyError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable {
        public let rawValue: String
        public static let overflow = Code(rawValue: "amount_overflow")
    }

    public var code: Code
    public var message: String
    public var description: String { "\(code.rawValue): \(message)" }
}
