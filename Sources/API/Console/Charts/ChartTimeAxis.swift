import LedgerDomain

/// A chart's time axis, in UTC: the instants it spans and at most `maximumTicks` ticks on
/// round instants (whole hours, days, month starts or years, whichever unit keeps them
/// few), each labelled as precisely as its unit needs (`2026-11-15 14:00`, `2026-11-15`,
/// `2026-11`, `2026`).
public struct ChartTimeAxis: Sendable, Equatable {
    /// The left end.
    public let from: Timestamp
    /// The right end.
    public let until: Timestamp
    /// The ticks, oldest first.
    public let ticks: [Tick]

    /// A round instant and its label.
    public struct Tick: Sendable, Equatable {
        public var at: Timestamp
        public var label: String
    }

    /// `until` at or before `from` spans one day from `from`.
    public init(from: Timestamp, until: Timestamp, maximumTicks: Int = 6) {
        self.from = from
        let end = until > from ? until : Timestamp(microseconds: from.microseconds + Self.day) ?? .maximum
        self.until = end
        ticks = Self.ticks(from: from, until: end, maximum: max(1, maximumTicks))
    }

    /// Where `instant` lies: 0 at `from`, 1 at `until`, clamped between them.
    public func fraction(_ instant: Timestamp) -> Double {
        let clamped = min(max(instant, from), until)
        return Double(clamped.microseconds - from.microseconds) / Double(until.microseconds - from.microseconds)
    }

    static let hour: Int64 = 3_600_000_000
    static let day: Int64 = 86_400_000_000

    private static func ticks(from: Timestamp, until: Timestamp, maximum: Int) -> [Tick] {
        // Fixed lengths first (hours, days, weeks), then calendar months and years.
        for length in [1, 3, 6, 12].map({ $0 * hour }) + [1, 2, 7, 14].map({ $0 * day }) {
            let first = (from.microseconds + length - 1) / length * length
            let count = first > until.microseconds ? 0 : Int((until.microseconds - first) / length) + 1
            guard count <= maximum else { continue }
            return (0..<count).compactMap { i in
                Timestamp(microseconds: first + Int64(i) * length).map { Tick(at: $0, label: label($0, hours: length < day)) }
            }
        }
        for months in [1, 2, 3, 6, 12, 24, 60, 120, 600, 1_200] {
            var out: [Tick] = []
            var month: UTCMonth? = UTCMonth(containing: from)
            if let m = month, m.start < from { month = m.next }
            while let m = month, m.start <= until, out.count <= maximum {
                if (m.year * 12 + m.month - 1) % months == 0 {
                    out.append(Tick(at: m.start, label: months >= 12 ? String(m.year) : m.description))
                }
                month = m.next
            }
            if out.count <= maximum { return out }
        }
        return []
    }

    private static func label(_ instant: Timestamp, hours: Bool) -> String {
        let text = instant.iso8601
        return hours ? String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) : String(text.prefix(10))
    }
}
