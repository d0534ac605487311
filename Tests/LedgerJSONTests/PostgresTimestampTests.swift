import Foundation
import Postgres
import Testing
import TestSupport
@testable import LedgerJSON

/// Dates as the Codable bridge writes them against PostgreSQL's proleptic Gregorian
/// calendar, which (unlike Foundation's) has no Julian years before 1582.
@Suite("PostgreSQL: timestamps agree with timestamp output", .serialized, .bounded)
struct PostgresTimestampTests {
    func serverTexts(_ seconds: [Int64], _ micros: [Int64]) throws -> [String] {
        let connection = try TestPostgres.connect()
        let result = try connection.query("""
            SELECT to_char(timestamp '1970-01-01' + s * interval '1 second' + us * interval '1 microsecond',
                           'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS u(s, us, i) ORDER BY i
            """, [PostgresTextArray(seconds.map(String.init)), PostgresTextArray(micros.map(String.init))])
        return try result.rows.map { try $0.requireString(0) }
    }

    @Test("whole seconds from year 1 to 9999")
    func wholeSeconds() throws {
        var seconds: [Int64] = [-62_135_596_800, 253_402_300_799, -12_219_292_801, -12_219_292_800, 951_782_400, 0, -1]
        try Property.check("pg.timestamps.seconds", count: 3000) { (rng, _) throws in
            seconds.append(Int64.random(in: -62_135_596_800...253_402_300_799, using: &rng))
        }
        let texts = try serverTexts(seconds, seconds.map { _ in 0 })
        for (s, text) in zip(seconds, texts) {
            #expect(DateText.format(Date(timeIntervalSince1970: TimeInterval(s))) == text, "\(s)")
            #expect(DateText.parse(text) == Date(timeIntervalSince1970: TimeInterval(s)), "\(text)")
        }
    }

    @Test("microseconds from 1900 to 2100 print and parse back exactly")
    func microseconds() throws {
        var seconds: [Int64] = []
        var micros: [Int64] = []
        try Property.check("pg.timestamps.micros", count: 3000) { (rng, _) throws in
            seconds.append(Int64.random(in: -2_208_988_800...4_102_444_799, using: &rng))
            micros.append(Int64.random(in: 0...999_999, using: &rng))
        }
        let texts = try serverTexts(seconds, micros)
        for text in texts {
            let date = try #require(DateText.parse(text), "\(text)")
            #expect(DateText.format(date) == text)
        }
    }
}
