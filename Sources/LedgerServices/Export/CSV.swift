import Foundation

/// RFC 4180 text: fields with a comma, a quote or a line break are quoted, quotes doubled.
/// Lines end with CRLF only in the RFC; here they end as the terminal's lines do (LF),
/// which every spreadsheet and `csv` module reads.
public enum CSV {
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Free text typed by a person (a reason, a name), made inert for spreadsheets: one
    /// that starts like a formula (`=`, `+`, `-`, `@`, a tab or a carriage return) gets a
    /// leading `'`, as OWASP advises against CSV injection. Amounts and ids are left as
    /// they are.
    public static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    public static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") }

    public static func lines(header: [String], _ rows: [[String]]) -> [String] { [line(header)] + rows.map(line) }
}
