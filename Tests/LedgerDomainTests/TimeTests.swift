import Foundation
import LedgerDomain
import Testing
import TestSupport

@Suite("UTC instants and months", .bounded)
struct TimeTests {
    @Test("calendar fields agree with Foundation's UTC Gregorian calendar over generated instants")
    func againstFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var random = SeededRandom(seed: 10)
        for _ in 0..<20_000 {
            let micros = Int64(random.int(0...253_402_300_799)) * 1_000_000 + Int64(random.int(0...999_999))
            let t = Timestamp(microseconds: micros)!
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(micros / 1_000_000)))
            let mine = t.components
            #expect(mine.year == c.year && mine.month == c.month && mine.day == c.day, "\(t)")
            #expect(mine.hour == c.hour && mine.minute == c.minute && mine.second == c.second, "\(t)")
            #expect(Timestamp(iso8601: t.iso8601) == t)
            #expect(Timestamp(year: mine.year, month: mine.month, day: mine.day, hour: mine.hour, minute: mine.minute,
                              second: mine.second, microsecond: mine.microsecond) == t)
        }
    }

    @Test("RFC 3339 with offsets, fractions and lowercase designators; invalid dates refused")
    func parsing() {
        #expect(Timestamp(iso8601: "2026-11-01T00:30:00+01:00")?.iso8601 == "2026-10-31T23:30:00.000000Z")
        #expect(Timestamp(iso8601: "2026-11-01t00:00:00.5z")?.iso8601 == "2026-11-01T00:00:00.500000Z")
        #expect(Timestamp(iso8601: "2026-11-01T00:00:00.1234567Z") == nil, "no silent rounding")
        #expect(Timestamp(iso8601: "2026-11-01T00:00:00.1234560Z") != nil)
        for bad in ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-01T24:00:00Z", "2026-11-01 00:00:00Z",
                    "2026-11-01T00:00:00", "1969-12-31T23:59:59Z", "2026-11-01T00:00:00+24:00"] {
            #expect(Timestamp(iso8601: bad) == nil, "\(bad)")
        }
        #expect(Timestamp(iso8601: "2024-02-29T00:00:00Z") != nil)
    }

    @Test("the next start of a UTC month is the next month's first instant, even from a month start")
    func nextMonthStart() {
        #expect(UTCMonth.nextStart(after: Timestamp(iso8601: "2026-11-01T00:00:00Z")!)?.iso8601 == "2026-12-01T00:00:00.000000Z")
        #expect(UTCMonth.nextStart(after: Timestamp(iso8601: "2026-12-31T23:59:59.999999Z")!)?.iso8601 == "2027-01-01T00:00:00.000000Z")
        var random = SeededRandom(seed: 11)
        for _ in 0..<10_000 {
            let t = Timestamp(microseconds: Int64(random.int(0...253_370_764_800)) * 1_000_000)!
            let next = UTCMonth.nextStart(after: t)!
            #expect(next > t)
            #expect(next.components.day == 1 && next.components.hour == 0 && next.components.minute == 0)
            #expect(UTCMonth(containing: next) == UTCMonth(containing: t).next)
        }
        #expect(UTCMonth("2026-11")?.description == "2026-11")
        for bad in ["2026-1", "2026-00", "2026-13", "26-11", "2026/11", "2026-11-01", "１９７０-01"] { #expect(UTCMonth(bad) == nil, "\(bad)") }
    }
}
