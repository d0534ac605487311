import LedgerJSON

/// The UTC calendar of the domain's instants, on `CivilCalendar`: the domain must give
/// the same answer on every machine whatever its time zone.
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

    static func daysIn(year: Int, month: Int) -> Int {
        Int(CivilCalendar.daysIn(month: Int64(month), year: Int64(year)))
    }

    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        CivilCalendar.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let (y, m, d) = CivilCalendar.date(daysSince1970: days)
        return (Int(y), Int(m), Int(d))
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by d: Int64) -> Int64 { CivilCalendar.floorDivide(self, by: d) }
}
