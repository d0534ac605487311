import Foundation

/// ISO 8601 timestamps in UTC with microseconds, `2026-11-29T12:00:00.123456Z`: fixed
/// width, so the text sorts like the instant; microseconds, like PostgreSQL's
/// `timestamptz`. Written here rather than with `ISO8601DateFormatter`, which stops at
/// milliseconds and is slow.
enum Timestamp {
    private static let secondsFrom1970To2001: Int64 = 978_307_200
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    private static let firstSecond: Int64 = -62_135_596_800
    private static let lastSecond: Int64 = 253_402_300_799

    /// The text for `date`, rounded to the microsecond; nil outside years 1 to 9999.
    static func format(_ date: Date) -> String? {
        let t = date.timeIntervalSinceReferenceDate
        guard t.isFinite else { return nil }
        // Whole seconds and the fraction apart: multiplying the whole interval by 10^6
        // would lose microseconds for dates far from 2001.
        var whole = t.rounded(.down)
        var micros = ((t - whole) * 1_000_000).rounded()
        if micros >= 1_000_000 { whole += 1; micros -= 1_000_000 }
        guard whole >= Double(firstSecond - secondsFrom1970To2001), whole <= Double(lastSecond - secondsFrom1970To2001) else { return nil }
        let seconds = Int64(whole) + secondsFrom1970To2001
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)

        var out = [UInt8]()
        out.reserveCapacity(27)
        func put(_ n: Int64, _ width: Int) {
            var digits = [UInt8](repeating: 0x30, count: width)
            var v = n
            for i in stride(from: width - 1, through: 0, by: -1) {
                digits[i] = UInt8(48 + v % 10)
                v /= 10
            }
            out.append(contentsOf: digits)
        }
        put(year, 4); out.append(UInt8(ascii: "-"))
        put(month, 2); out.append(UInt8(ascii: "-"))
        put(day, 2); out.append(UInt8(ascii: "T"))
        put(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":"))
        put(secondOfDay / 60 % 60, 2); out.append(UInt8(ascii: ":"))
        put(secondOfDay % 60, 2); out.append(UInt8(ascii: "."))
        put(Int64(micros), 6); out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction]` followed by `Z` or `±HH:MM` (RFC 3339).
    /// The fraction has 1 to 9 digits; digits past the microsecond are dropped.
    static func parse(_ text: String) -> Date? {
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
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var micros: Int64 = 0
        if expect(UInt8(ascii: ".")) {
            var digits = 0
            while i < b.count, b[i] &- 48 < 10 {
                if digits < 6 { micros = micros * 10 + Int64(b[i] - 48) }
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
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        guard seconds >= firstSecond, seconds <= lastSecond else { return nil }
        return Date(timeIntervalSinceReferenceDate: Double(seconds - secondsFrom1970To2001) + Double(micros) / 1_000_000)
    }

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // The Gregorian calendar repeats every 400 years (146097 days). Counting years from
    // March makes the leap day the last day of the counted year, so a month's first day
    // is a linear function of its index: (153 * m + 2) / 5 for m = 0 (March) ... 11 (Feb).

    /// Days since 1970-01-01 of a Gregorian date (years 1 to 9999).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = marchYear / 400 // marchYear >= 0 in the supported range
        let yearOfCycle = marchYear - cycle * 400
        let marchMonth = (month + 9) % 12
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        // 719468 days lie between 0000-03-01 and 1970-01-01.
        return cycle * 146_097 + dayOfCycle - 719_468
    }

    /// The Gregorian date of a day counted from 1970-01-01 (years 1 to 9999).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let fromMarch0 = days + 719_468 // >= 0 in the supported range
        let cycle = fromMarch0 / 146_097
        let dayOfCycle = fromMarch0 - cycle * 146_097
        // Remove the leap days of the cycle's 4-, 100- and 400-year rules to find the year.
        let yearOfCycle = (dayOfCycle - dayOfCycle / 1460 + dayOfCycle / 36_524 - dayOfCycle / 146_096) / 365
        let dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = cycle * 400 + yearOfCycle + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
