/// Civil-calendar arithmetic in UTC (proleptic Gregorian), without Foundation's calendars:
/// the domain must give the same answer on every machine whatever its time zone.
extension Timestamp {
    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The UTC date and time of day of this instant.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, microsecond: Int) {
        let days = microseconds.floorDivided(by: Self.microsecondsPerDay)
        let rest = microseconds - days * Self.microsecondsPerDay
        let (y, m, d) = Self.civil(fromDays: days)
        let second = rest / 1_000_000
        return (y, m, d, Int(second / 3600), Int(second / 60 % 60), Int(second % 60), Int(rest % 1_000_000))
    }

    /// The instant at the given UTC date and time, or nil when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, microsecond: Int = 0) {
        guard (1970...9999).contains(year), (1...12).contains(month),
              (1...Self.daysIn(year: year, month: month)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
              (0...999_999).contains(microsecond) else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        let seconds = Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        self.init(microseconds: days * Self.microsecondsPerDay + seconds * 1_000_000 + Int64(microsecond))
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil algorithm).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64((month + 9) % 12)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count since 1970-01-01 (inverse of `days(fromCivil:)`).
    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
