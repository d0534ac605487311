/// An instant in UTC with microsecond precision, the precision of PostgreSQL's
/// `timestamptz`, so that an instant survives the database round trip exactly.
///
/// Years are limited to 1970–9999: the log's text form of an instant
/// (`2026-11-29T12:00:00.000000Z`) has a four-digit year and no sign.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public let microseconds: Int64

    public static let minimum = Timestamp(unchecked: 0)
    /// 9999-12-31T23:59:59.999999Z
    public static let maximum = Timestamp(unchecked: 253_402_300_799_999_999)

    public init?(microseconds: Int64) {
        guard microseconds >= Self.minimum.microseconds, microseconds <= Self.maximum.microseconds else { return nil }
        self.microseconds = microseconds
    }

    init(unchecked microseconds: Int64) { self.microseconds = microseconds }

    /// From whole milliseconds since the epoch, as Apple's payloads give times.
    public init?(milliseconds: Int64) {
        let (us, overflow) = milliseconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        self.init(microseconds: us)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    public var description: String { iso8601 }

    /// Seconds since 1970, for the timers that count in seconds (lockouts, jobs).
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected an RFC 3339 UTC instant such as 2026-11-29T12:00:00Z, got \(text)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
