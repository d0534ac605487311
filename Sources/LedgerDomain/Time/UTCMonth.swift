/// A UTC calendar month, `YYYY-MM`.
public struct UTCMonth: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Parses exactly `YYYY-MM`.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 7, b[4] == UInt8(ascii: "-"),
              let y = Int(String(decoding: b[0..<4], as: UTF8.self)), b[0..<4].allSatisfy({ (48...57).contains($0) }),
              let m = Int(String(decoding: b[5..<7], as: UTF8.self)), b[5..<7].allSatisfy({ (48...57).contains($0) })
        else { return nil }
        self.init(year: y, month: m)
    }

    /// The month an instant falls in.
    public init(containing instant: Timestamp) {
        let c = instant.components
        self.year = c.year
        self.month = c.month
    }

    /// The first instant of the month.
    public var start: Timestamp { Timestamp(year: year, month: month, day: 1)! }

    /// The month after this one (nil after 9999-12).
    public var next: UTCMonth? { month == 12 ? UTCMonth(year: year + 1, month: 1) : UTCMonth(year: year, month: month + 1) }

    /// The month before this one (nil before 1970-01).
    public var previous: UTCMonth? { month == 1 ? UTCMonth(year: year - 1, month: 12) : UTCMonth(year: year, month: month - 1) }

    /// The first instant of the following month; for an instant that is itself a
    /// month start, the *next* month's start.
    public static func nextStart(after instant: Timestamp) -> Timestamp? {
        UTCMonth(containing: instant).next?.start
    }

    public func contains(_ instant: Timestamp) -> Bool { UTCMonth(containing: instant) == self }

    public var description: String {
        let y = String(year)
        let m = month < 10 ? "0\(month)" : String(month)
        return "\(y)-\(m)"
    }

    public static func < (a: UTCMonth, b: UTCMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let m = UTCMonth(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a month YYYY-MM, got \(text.debugDescription)"))
        }
        self = m
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
