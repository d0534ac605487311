import Foundation
import Postgres

/// A text searched for in the ids and names of a projection's records: case-insensitive
/// (PostgreSQL's `lower()` on both sides, so that the query and the rows fold alike),
/// matched by `LIKE` with its wildcards escaped and by a regular expression for word
/// starts, with no extension (no `pg_trgm`). The owner's read model puts the fragments
/// into its own statement; this type names no table.
public struct TextMatch: Sendable, Equatable {
    /// What was typed, trimmed (never empty).
    public let text: String

    /// nil for a text that is empty once trimmed.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        self.text = trimmed
    }

    /// `text` for `LIKE … ESCAPE '\'`: `\`, `%` and `_` stand for themselves.
    public static func escapeLike(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if c == "\\" || c == "%" || c == "_" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// `text` for a PostgreSQL regular expression (ARE): every ASCII character that is not
    /// a letter or a digit is escaped, which makes it literal; other characters are never
    /// operators.
    public static func escapeRegex(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if c.isASCII && !(("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)) {
                out.unicodeScalars.append("\\")
            }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// The four parameters `rank` and `condition` refer to, from `$n` on: the text, a
    /// prefix pattern, a substring pattern and a word-start expression.
    public var parameters: [any PostgresBindable] {
        let like = Self.escapeLike(text)
        return [text, like + "%", containsPattern, "(^|[^[:alnum:]])" + Self.escapeRegex(text)]
    }

    /// The `MatchRank` of a row, as SQL, its parameters from `$n`.
    public static func rank(id: String, name: String, from n: Int) -> String {
        """
        CASE WHEN lower(\(id)) = lower($\(n)) THEN 0 WHEN lower(\(id)) LIKE lower($\(n + 1)) ESCAPE '\\' THEN 1
             WHEN lower(\(name)) LIKE lower($\(n + 1)) ESCAPE '\\' OR lower(\(name)) ~ lower($\(n + 3)) THEN 2 ELSE 3 END
        """
    }

    /// The substring pattern alone, which `condition` needs.
    public var containsPattern: String { "%" + Self.escapeLike(text) + "%" }

    /// Whether a row matches at all (the text is in its id or its name), as SQL, with
    /// `containsPattern` as `$n` (the third of `parameters`).
    public static func condition(id: String, name: String, at n: Int) -> String {
        "(lower(\(id)) LIKE lower($\(n)) ESCAPE '\\' OR lower(\(name)) LIKE lower($\(n)) ESCAPE '\\')"
    }

    /// The forms of `text` an id of uncertain case is looked for under, each through an
    /// index: as typed, in lower case and in upper case (without repeats).
    public var caseVariants: [String] {
        var seen = Set<String>()
        return [text, text.lowercased(), text.uppercased()].filter { seen.insert($0).inserted }
    }
}
