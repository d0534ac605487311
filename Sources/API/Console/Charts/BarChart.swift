/// Bars, one per label (a month), on a value axis with round ticks and its unit: each
/// bar's figure is written on it when there is room, and is its tooltip; the labels
/// under the bars thin out when they would overlap. A pure function of its numbers.
public struct BarChart: Sendable {
    public struct Bar: Sendable {
        public var label: String
        public var value: Int128
        /// `data-…` attributes of the bar's cell in the table (names without the prefix).
        public var data: [(String, String)]

        public init(_ label: String, _ value: Int128, data: [(String, String)] = []) {
            self.label = label
            self.value = value
            self.data = data
        }
    }

    public var id: String
    public var title: String
    public var unit: ChartUnit
    public var bars: [Bar]
    /// The labels' column in the table, and the x axis's title.
    public var labelName: String
    /// The values' column in the table.
    public var valueName: String
    /// The whole chart's width, and its plot's height, in pixels.
    public var width: Int
    public var plotHeight: Int

    public init(id: String, title: String, unit: ChartUnit, bars: [Bar], labelName: String = "month (UTC)",
                valueName: String, width: Int = 640, plotHeight: Int = 160) {
        self.id = id
        self.title = title
        self.unit = unit
        self.bars = bars
        self.labelName = labelName
        self.valueName = valueName
        self.width = width
        self.plotHeight = plotHeight
    }

    /// The chart, drawn.
    public var figure: ChartFigure {
        let axis = ChartAxis(bars.map(\.value), unit: unit)
        let top = 30, left = max(48, axis.labelsWidth(unit)), right = width - 8
        let slot = Double(right - left) / Double(max(1, bars.count))
        let barWidth = min(48, slot * 0.7)
        // Every `every`-th label, so that none overlaps the next.
        let widest = bars.map { ChartFigure.textWidth($0.label) }.max() ?? 0
        let every = max(1, Int(((widest + 6) / max(slot, 1)).rounded(.up)))
        let valuesFit = bars.allSatisfy { ChartFigure.textWidth(unit.tick($0.value)) <= slot - 2 }
        var drawing = axis.drawing(unit, left: left, right: right, top: top, height: plotHeight)
        let zero = axis.y(0, top: top, height: plotHeight)
        for (i, bar) in bars.enumerated() {
            let center = Double(left) + slot * (Double(i) + 0.5)
            let y = axis.y(bar.value, top: top, height: plotHeight)
            let n = ChartFigure.number
            drawing += "<g><title>\(HTML.escape(bar.label)): \(HTML.escape(unit.text(bar.value)))</title>"
                + "<rect x=\"\(n(center - barWidth / 2))\" y=\"\(n(min(y, zero)))\" width=\"\(n(barWidth))\" height=\"\(n(abs(zero - y)))\" "
                + "fill=\"#0b3d91\" data-value=\"\(bar.value)\"/>"
            if valuesFit && bar.value != 0 {
                let labelY = bar.value > 0 ? max(Double(top) - 2, y - 4) : min(Double(top + plotHeight) + 10, y + 12)
                drawing += "<text x=\"\(n(center))\" y=\"\(n(labelY))\" text-anchor=\"middle\">\(HTML.escape(unit.tick(bar.value)))</text>"
            }
            if i % every == 0 {
                drawing += "<text x=\"\(n(center))\" y=\"\(top + plotHeight + 16)\" text-anchor=\"middle\">\(HTML.escape(bar.label))</text>"
            }
            drawing += "</g>"
        }
        drawing += "<text x=\"\((left + right) / 2)\" y=\"\(top + plotHeight + 34)\" text-anchor=\"middle\" font-weight=\"bold\" aria-hidden=\"true\">"
            + "\(HTML.escape(labelName))</text>"
        let table = ChartTable(columns: [labelName, valueName], rows: bars.map {
            ChartTable.Row($0.label, [ChartTable.Cell(unit.text($0.value), data: $0.data + [("value", String($0.value))])])
        })
        let summary = bars.isEmpty ? "No \(valueName) yet."
            : "\(bars.count) bars of \(valueName), \(bars.first!.label) to \(bars.last!.label), in \(unit.title)."
        return ChartFigure(id: id, title: title, summary: summary, width: width, height: top + plotHeight + 42, drawing: drawing, table: table)
    }
}
