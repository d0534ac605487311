import Foundation

/// Aligned columns for a terminal: a header and rows of cells, separated by two spaces,
/// numbers (the columns named in `rightAligned`) aligned on the right.
enum TextTable {
    static func lines(_ header: [String], _ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let cells = [header] + rows
        let widths = header.indices.map { column in cells.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return cells.map { cell in
            header.indices.map { column in
                let text = cell.indices.contains(column) ? cell[column] : ""
                let pad = String(repeating: " ", count: widths[column] - text.count)
                return rightAligned.contains(column) ? pad + text : text + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
