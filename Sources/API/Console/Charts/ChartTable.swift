/// The numbers of a chart as a table, beside it in a `<details>`: what a screen reader
/// reads (the picture is one labelled image to it), what a person copies, and what the
/// tests compare. Each cell may carry data attributes (`data-value`: the raw figure).
public struct ChartTable: Sendable {
    public struct Cell: Sendable {
        public var text: String
        /// Makes the cell a link (already a path of the console's, escaped where written).
        public var link: String?
        /// `data-…` attributes, names without the prefix (`value` for `data-value`).
        public var data: [(String, String)]

        public init(_ text: String, link: String? = nil, data: [(String, String)] = []) {
            self.text = text
            self.link = link
            self.data = data
        }
    }

    public struct Row: Sendable {
        /// The row's header (a month, a day, a lane).
        public var header: String
        public var cells: [Cell]

        public init(_ header: String, _ cells: [Cell]) {
            self.header = header
            self.cells = cells
        }
    }

    /// The columns' headers, the row headers' first.
    public var columns: [String]
    public var rows: [Row]

    public init(columns: [String], rows: [Row]) {
        self.columns = columns
        self.rows = rows
    }

    /// The table, with its caption; an empty one says so rather than show headers alone.
    public func html(caption: String) -> String {
        guard !rows.isEmpty else { return "<p>No figures yet.</p>" }
        let head = columns.map { "<th scope=\"col\">\(HTML.escape($0))</th>" }.joined()
        let body = rows.map { row in
            "<tr><th scope=\"row\">\(HTML.escape(row.header))</th>" + row.cells.map { cell in
                let data = cell.data.map { " data-\($0.0)=\"\(HTML.escape($0.1))\"" }.joined()
                let text = cell.link.map { "<a href=\"\(HTML.escape($0))\">\(HTML.escape(cell.text))</a>" } ?? HTML.escape(cell.text)
                return "<td\(data)>\(text)</td>"
            }.joined() + "</tr>"
        }.joined()
        return "<table><caption>\(HTML.escape(caption))</caption><thead><tr>\(head)</tr></thead><tbody>\(body)</tbody></table>"
    }
}
