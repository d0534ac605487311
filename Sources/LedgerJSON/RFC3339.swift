/// RFC 3339 instants in UTC with microseconds, `2026-11-29T12:00:00.123456Z`: fixed width,
/// so the text sorts like the instant; microseconds, like PostgreSQL's `timestamptz`, and
/// what the hash chain's SQL prints with
/// `to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`. Written here rather
/// than with `ISO8601DateFormatter`, which stops at milliseconds and is slow. The one
/// reader and writer of instants: JSON's dates and the domain's `Timestamp` use it.
public enum RFC3339 {
    /// What a text names, before any range is applied: the local date and time and the
    /// offset from UTC.
    public struct Fields: Sendable, Equatable {
        public var year, month, day, hour, minute, second: Int64
        public var microsecond: Int64
        public var offsetSeconds: Int64

        /// Microseconds since 1970-01-01T00:00:00Z.
        public var microsecondsSince1970: Int64 {
            let seconds = CivilCalendar.daysSince1970(year: year, month: month, day: day) * 86_400
                + hour * 3600 + minute * 60 + second - offsetSeconds
            return seconds * 1_000_000 + microsecond
        }
    }

    /// Digits of a fraction past the microsecond.
    public enum ExtraDigits: Sendable {
        /// Refused unless zero, rather than silently rounded (the domain's instants).
        case mustBeZero
        /// Dropped (JSON's dates, which `Date` cannot hold exactly anyway).
        case dropped
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`, `t` and `z` accepted as RFC 3339
    /// allows; nil for anything else, or a field out of its range (years 1 to 9999).
    public static func fields(_ text: String, extraDigits: ExtraDigits) -> Fields? {
        let b = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int64? {
            guard i + width <= b.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + width) {
                let d = b[k] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int64(d)
            }
            i += width
            return v
        }
        func expect(_ c: UInt8, orLower lower: UInt8? = nil) -> Bool {
            guard i < b.count, b[i] == c || b[i] == lower else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), expect(UInt8(ascii: "T"), orLower: UInt8(ascii: "t")),
              let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
              let second = number(2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var micros: Int64 = 0
        if expect(UInt8(ascii: ".")) {
            var digits = 0
            while i < b.count, b[i] &- 48 < 10 {
                let d = Int64(b[i] - 48)
                if digits < 6 { micros = micros * 10 + d } else if d != 0 && extraDigits == .mustBeZero { return nil }
                digits += 1
                i += 1
            }
            guard (1...9).contains(digits) else { return nil }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        var offsetSeconds: Int64 = 0
        if expect(UInt8(ascii: "Z"), orLower: UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2), expect(UInt8(ascii: ":")), let om = number(2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        return Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second, microsecond: micros,
                      offsetSeconds: offsetSeconds)
    }

    /// The text of an instant, `YYYY-MM-DDTHH:MM:SS.ffffffZ`, for years 1 to 9999.
    public static func text(microsecondsSince1970 us: Int64) -> String {
        let days = CivilCalendar.floorDivide(us, by: 86_400_000_000)
        let rest = us - days * 86_400_000_000
        let (year, month, day) = CivilCalendar.date(daysSince1970: days)
        let second = rest / 1_000_000
        // Written in place: a projection's batch prints one per journal row it copies.
        return String(unsafeUninitializedCapacity: 27) { out in
            var i = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8) {
                var v = value
                for k in stride(from: i + width - 1, through: i, by: -1) {
                    out[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                out[i + width] = separator
                i += width + 1
            }
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(day, 2, then: UInt8(ascii: "T"))
            put(second / 3600, 2, then: UInt8(ascii: ":"))
            put(second / 60 % 60, 2, then: UInt8(ascii: ":"))
            put(second % 60, 2, then: UInt8(ascii: "."))
            put(rest % 1_000_000, 6, then: UInt8(ascii: "Z"))
            return i
        }
    }
}
