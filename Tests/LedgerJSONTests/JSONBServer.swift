import Postgres
import TestSupport
@testable import LedgerJSON

/// The test cluster asked what `jsonb` makes of JSON texts, many per round trip.
///
/// Connecting fails (and so fails the test, never skips it) when
/// LEDGER_TEST_DATABASE_URL is not set.
final class JSONBServer {
    enum Outcome: Equatable, CustomStringConvertible {
        static func == (a: Outcome, b: Outcome) -> Bool {
            switch (a, b) {
            case (.accepted(let x), .accepted(let y)), (.refused(let x), .refused(let y)): return sameBytes(x, y)
            default: return false
            }
        }

        /// What `text::jsonb::text` printed.
        case accepted(String)
        /// The server refused the text; SQLSTATE and message.
        case refused(String)

        var text: String? {
            if case .accepted(let t) = self { return t }
            return nil
        }

        var description: String {
            switch self {
            case .accepted(let t): return "accepted \(t.count > 200 ? String(t.prefix(200)) + "…" : t)"
            case .refused(let m): return "refused (\(m))"
            }
        }
    }

    let connection: PostgresConnection

    init() throws {
        connection = try TestPostgres.connect()
        // One subtransaction per text, so one refusal does not fail the whole batch.
        try connection.query("""
            CREATE FUNCTION pg_temp.try_jsonb(t text) RETURNS text LANGUAGE plpgsql AS $$
            BEGIN
                RETURN 'ok:' || (t::jsonb)::text;
            EXCEPTION WHEN others THEN
                RETURN 'error:' || SQLSTATE || ' ' || SQLERRM;
            END $$
            """)
    }

    /// What the server makes of each text, in order.
    func outcomes(_ texts: [String], batchSize: Int = 500) throws -> [Outcome] {
        var out: [Outcome] = []
        out.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            let batch = Array(texts[start..<min(start + batchSize, texts.count)])
            let result = try connection.query(
                "SELECT pg_temp.try_jsonb(t) FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i",
                [PostgresTextArray(batch)])
            for row in result.rows {
                let s = try row.requireString(0)
                out.append(s.hasPrefix("ok:") ? .accepted(String(s.dropFirst(3))) : .refused(String(s.dropFirst(6))))
            }
            start += batchSize
        }
        return out
    }

    /// `data::text` of each text after a round trip through a `jsonb` table column, the
    /// way an auditor reads the log.
    func storedTexts(_ texts: [String]) throws -> [String] {
        try connection.query("CREATE TEMP TABLE IF NOT EXISTS json_probe (i bigint PRIMARY KEY, data jsonb NOT NULL)")
        try connection.query("TRUNCATE json_probe")
        try connection.query(
            "INSERT INTO json_probe SELECT i, t::jsonb FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i)",
            [PostgresTextArray(texts)])
        return try connection.query("SELECT data::text FROM json_probe ORDER BY i").rows.map { try $0.requireString(0) }
    }
}

/// What LedgerJSON makes of a JSON text: the canonical text PostgreSQL should print, or
/// why it is refused. Parsed as PostgreSQL reads input: any number `numeric` holds, and
/// `\u0000` refused even inside a value a repeated key discards.
func ledgerOutcome(_ text: String) -> (canonical: String?, reason: String) {
    do {
        let value = try JSONValue.parse(text, options: JSONParseOptions(maxNumberGrowth: .max, allowsNUL: false))
        try value.validateForJSONB()
        return (value.canonicalText, "")
    } catch {
        return (nil, "\(error)")
    }
}
