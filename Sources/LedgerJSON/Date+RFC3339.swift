import Foundation

/// How the Codable bridge writes and reads `Date`: RFC 3339 in UTC with microseconds
/// (`RFC3339`), years 1 to 9999.
enum DateText {
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
        return RFC3339.text(microsecondsSince1970: seconds * 1_000_000 + Int64(micros))
    }

    /// The date a text names; digits past the microsecond are dropped.
    static func parse(_ text: String) -> Date? {
        guard let fields = RFC3339.fields(text, extraDigits: .dropped) else { return nil }
        let us = fields.microsecondsSince1970
        let seconds = CivilCalendar.floorDivide(us, by: 1_000_000)
        guard seconds >= firstSecond, seconds <= lastSecond else { return nil }
        return Date(timeIntervalSinceReferenceDate: Double(seconds - secondsFrom1970To2001) + Double(us - seconds * 1_000_000) / 1_000_000)
    }
}
