import Postgres
import Testing
import TestSupport

/// The journal's rows go by binary COPY: each field must reach the server as the value it
/// stands for, whatever its size or sign (money as `numeric`, times as `timestamptz`).
@Suite("Binary COPY rows", .bounded)
struct BinaryCopyRowsTests {
    @Test("B1: amounts of every size and sign COPY in as numeric and read back as the same integer")
    func numericRoundTrips() throws {
        let connection = try PostgresConnection(conninfo: try TestPostgres.requireURL())
        _ = try connection.query("CREATE TEMP TABLE amounts (n bigint, v numeric, t timestamptz, i int)")
        let edges: [Int128] = [0, 1, -1, 9_999, 10_000, -10_000, 10_001, 100_000_000, 1_000_000_000_000, 99_990_000,
                               Int128(Int64.max), Int128(Int64.min), .max, .min, .max - 1, .min + 1]
        try Property.check("postgres.binarycopy.numeric", count: 100) { (rng, seed) throws in
            _ = try connection.query("TRUNCATE amounts")
            var values: [Int128] = rng.chance(0.2) ? edges : []
            for _ in 0..<rng.int(0...30) {
                // Any magnitude, often a round one (trailing zero digits in base 10,000).
                let digits = rng.int(1...38)
                var v: Int128 = 0
                for _ in 0..<digits { v = v * 10 + Int128(rng.int(0...9)) }
                if rng.chance(0.3) { v = v / 10_000 * 10_000 }
                values.append(rng.chance(0.5) ? -v : v)
            }
            let micros = Int64(rng.int(0...253_402_300_799)) * 1_000_000 + Int64(rng.int(0...999_999))
            var copy = PostgresBinaryCopyRows()
            for (i, v) in values.enumerated() {
                copy.startRow(fields: 4)
                copy.int8(Int64(i))
                copy.numeric(v)
                copy.timestamptz(unixMicroseconds: micros)
                copy.int4(Int32(truncatingIfNeeded: v))
            }
            _ = try connection.copyIn("COPY amounts (n, v, t, i) FROM STDIN WITH (FORMAT binary)", rows: copy)
            let back = try connection.query("""
                SELECT v::text, (extract(epoch FROM t) * 1000000)::bigint, i FROM amounts ORDER BY n
                """).rows
            #expect(back.count == values.count, "seed \(seed.hex)")
            for (row, v) in zip(back, values) {
                #expect(row.string(0) == String(v), "seed \(seed.hex): \(v) came back as \(row.string(0) ?? "NULL")")
                #expect(row.int64(1) == micros, "seed \(seed.hex)")
                #expect(row.int64(2) == Int64(Int32(truncatingIfNeeded: v)), "seed \(seed.hex)")
            }
        }
    }
}
