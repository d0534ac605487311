import Postgres
import Testing
import TestSupport

/// Batches of projections send their rows as `text[]` parameters: every element must reach
/// the server as it was, whatever it holds.
@Suite("Text arrays", .bounded)
struct TextArrayTests {
    @Test("a text[] parameter unnests to its elements, NULLs, quotes, backslashes and non-ASCII included")
    func roundTrips() throws {
        let connection = try PostgresConnection(conninfo: try TestPostgres.requireURL())
        try Property.check("postgres.textarray", count: 200) { (rng, seed) throws in
            let elements: [String?] = (0..<rng.int(0...30)).map { _ in
                rng.chance(0.1) ? nil : rng.chance(0.05) ? "NULL" : rng.string(from: Array("aZ09 ,{}\"\\'é€😀\t\n"), length: rng.int(0...12))
            }
            let rows = try connection.query("SELECT e FROM unnest($1::text[]) WITH ORDINALITY AS u(e, n) ORDER BY n",
                                            [PostgresTextArray(elements)])
            let back = rows.rows.map { $0.string(0) }
            #expect(back.count == elements.count, "seed \(seed.hex)")
            #expect(zip(back, elements).allSatisfy { sameBytes($0, $1) }, "seed \(seed.hex): \(elements) came back as \(back)")
        }
    }
}
