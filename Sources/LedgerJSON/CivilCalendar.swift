/// The proleptic Gregorian calendar in UTC, as day counts since 1970-01-01, without
/// Foundation's calendars: every machine gives the same answer whatever its time zone.
/// The one calendar of the code base: JSON's dates and the domain's `Timestamp` use it.
public enum CivilCalendar {
    public static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // The Gregorian calendar repeats every 400 years (146097 days). Counting years from
    // March makes the leap day the last day of the counted year, so a month's first day
    // is a linear function of its index: (153 * m + 2) / 5 for m = 0 (March) ... 11 (Feb).

    /// Days since 1970-01-01 of a date (any year; negative before 1970).
    public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfCycle = marchYear - cycle * 400
        let marchMonth = (month + 9) % 12
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        // 719468 days lie between 0000-03-01 and 1970-01-01.
        return cycle * 146_097 + dayOfCycle - 719_468
    }

    /// The date of a day counted from 1970-01-01 (inverse of `daysSince1970`).
    public static func date(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let fromMarch0 = days + 719_468
        let cycle = (fromMarch0 >= 0 ? fromMarch0 : fromMarch0 - 146_096) / 146_097
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

    /// Division rounding toward negative infinity: the day of an instant before 1970.
    public static func floorDivide(_ n: Int64, by d: Int64) -> Int64 {
        let q = n / d
        return (n % d != 0 && (n < 0) != (d < 0)) ? q - 1 : q
    }
}
