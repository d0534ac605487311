import Foundation

/// RFC 4180 text: fields with a comma, a quote or a line break are quoted, quotes doubled.
/// Lines end with CRLF only in the RFC; here they end as the terminal's lines do (LF),
/// which every spreadsheet and `csv` module reads.
enum CSV {
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") }

    static func lines(header: [String], _ rows: [[String]]) -> [String] { [line(header)] + rows.map(line) }
}
