import Postgres
import Testing
import TestSupport

/// Projections write a batch's new rows by text COPY: every field must reach the server as
/// it was, whatever it holds (tabs, newlines, carriage returns and backslashes escaped).
@Suite("Text COPY rows", .bounded)
struct TextCopyRowsTests {
    @Test("fields COPY in and read back byte for byte: NULLs, escapes, runs of them, non-ASCII")
    func roundTrips() throws {
        let connection = try PostgresConnection(conninfo: try TestPostgres.requireURL())
        _ = try connection.query("CREATE TEMP TABLE copied (n int, a text, b text)")
        try Property.check("postgres.textcopy", count: 200) { (rng, seed) throws in
            _ = try connection.query("TRUNCATE copied")
            let alphabet = Array("aZ09 \\\t\n\r,\"'é€😀")
            let rows: [(String?, String?)] = (0..<rng.int(0...20)).map { _ in
                (rng.chance(0.1) ? nil : rng.string(from: alphabet, length: rng.int(0...16)),
                 rng.chance(0.1) ? nil : rng.string(from: alphabet, length: rng.int(0...16)))
            }
            var copy = PostgresTextCopyRows()
            for (i, row) in rows.enumerated() {
                copy.field(String(i))
                copy.field(row.0)
                copy.field(row.1)
                copy.endRow()
            }
            _ = try connection.copyIn("COPY copied (n, a, b) FROM STDIN", rows: copy)
            let back = try connection.query("SELECT a, b FROM copied ORDER BY n").rows.map { ($0.string(0), $0.string(1)) }
            #expect(back.count == rows.count, "seed \(seed.hex)")
            #expect(zip(back, rows).allSatisfy { sameBytes($0.0, $1.0) && sameBytes($0.1, $1.1) },
                    "seed \(seed.hex): \(rows) came back as \(back)")
        }
    }
}
