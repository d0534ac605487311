/// A chart as the console shows it: a `<figure>` whose visible caption is the chart's
/// title, the SVG as one labelled image (`role="img"`, its `<title>` and a `<desc>` that
/// says what it draws), and the same numbers as a table in a `<details>` under it.
public struct ChartFigure: Sendable {
    /// Unique on the page: the figure's id, and the prefix of its parts' ids.
    public var id: String
    public var title: String
    /// What the picture draws, in words (the image's description).
    public var summary: String
    public var width: Int
    public var height: Int
    /// The SVG's drawing, inside the `<svg>` element.
    public var drawing: String
    public var table: ChartTable

    public init(id: String, title: String, summary: String, width: Int, height: Int, drawing: String, table: ChartTable) {
        self.id = id
        self.title = title
        self.summary = summary
        self.width = width
        self.height = height
        self.drawing = drawing
        self.table = table
    }

    /// The figure as HTML: its caption, the SVG and the table.
    public var html: String {
        let id = HTML.escape(self.id), title = HTML.escape(self.title)
        return """
            <figure id="\(id)" style="margin:1rem 0"><figcaption id="\(id)-caption"><strong>\(title)</strong></figcaption>
            <svg role="img" aria-labelledby="\(id)-title \(id)-desc" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif" font-size="11" style="max-width:100%;height:auto">\
            <title id="\(id)-title">\(title)</title><desc id="\(id)-desc">\(HTML.escape(summary)) The table under it holds the same numbers.</desc>\
            \(drawing)</svg>
            <details><summary>The numbers of this chart</summary>\(table.html(caption: self.title))</details></figure>
            """
    }

    /// A coordinate, to a tenth of a pixel.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return sign + String(magnitude / 10) + (magnitude % 10 == 0 ? "" : "." + String(magnitude % 10))
    }

    /// About how wide `text` is drawn at 11 px.
    static func textWidth(_ text: String) -> Double { Double(text.count) * 6.4 }
}
