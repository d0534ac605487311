import LedgerDomain

/// A figure over time as a step line: it holds its value from one point until the next
/// (a balance moves only when an entry posts), from a starting value to `until`, on a
/// time axis and a value axis with round ticks and its unit. Each point is a dot whose
/// tooltip and `data-value` are its figure. A pure function of its numbers.
public struct LineChart: Sendable {
    public struct Point: Sendable {
        public var at: Timestamp
        public var value: Int128
        /// How the point is named in its tooltip and the table (a day).
        public var label: String

        public init(at: Timestamp, value: Int128, label: String) {
            self.at = at
            self.value = value
            self.label = label
        }
    }

    public var id: String
    public var title: String
    public var unit: ChartUnit
    /// The value when the line starts: the first point, drawn at the axis's left end.
    public var start: Point
    /// The later points, oldest first.
    public var points: [Point]
    /// Where the line ends (now): the last value holds until then.
    public var until: Timestamp
    /// The values' column in the default table, and what the description calls them.
    public var valueName: String
    /// The numbers under the chart; by default each point's label and value.
    public var table: ChartTable?
    public var width: Int
    public var plotHeight: Int

    public init(id: String, title: String, unit: ChartUnit, start: Point, points: [Point], until: Timestamp, valueName: String,
                table: ChartTable? = nil, width: Int = 640, plotHeight: Int = 180) {
        self.id = id
        self.title = title
        self.unit = unit
        self.start = start
        self.points = points
        self.until = until
        self.valueName = valueName
        self.table = table
        self.width = width
        self.plotHeight = plotHeight
    }

    /// The chart, drawn.
    public var figure: ChartFigure {
        let all = [start] + points
        let axis = ChartAxis(all.map(\.value), unit: unit)
        let top = 30, left = max(48, axis.labelsWidth(unit)), right = width - 16
        let time = ChartTimeAxis(from: start.at, until: max(until, all.map(\.at).max() ?? until),
                                 maximumTicks: max(2, (right - left) / 110))
        let n = ChartFigure.number
        func x(_ at: Timestamp) -> Double { time.x(at, left: left, right: right) }
        func y(_ value: Int128) -> Double { axis.y(value, top: top, height: plotHeight) }
        var path = "M\(n(x(start.at))) \(n(y(start.value)))"
        for point in points { path += " H\(n(x(point.at))) V\(n(y(point.value)))" }
        path += " H\(n(Double(right)))"
        var drawing = axis.drawing(unit, left: left, right: right, top: top, height: plotHeight)
            + time.drawing(left: left, right: right, bottom: top + plotHeight)
            + "<path d=\"\(path)\" fill=\"none\" stroke=\"#0b3d91\" stroke-width=\"2\"/>"
        for point in all {
            drawing += "<circle cx=\"\(n(x(point.at)))\" cy=\"\(n(y(point.value)))\" r=\"3\" fill=\"#0b3d91\" data-value=\"\(point.value)\">"
                + "<title>\(HTML.escape(point.label)): \(HTML.escape(unit.text(point.value)))</title></circle>"
        }
        let last = all.last!
        let summary = "A step line of \(valueName) from \(start.label) (\(unit.text(start.value))) to \(last.label) (\(unit.text(last.value))), "
            + "\(points.count) change\(points.count == 1 ? "" : "s"), in \(unit.title)."
        let table = self.table ?? ChartTable(columns: ["date (UTC)", valueName], rows: all.map {
            ChartTable.Row($0.label, [ChartTable.Cell(unit.text($0.value), data: [("value", String($0.value))])])
        })
        return ChartFigure(id: id, title: title, summary: summary, width: width, height: top + plotHeight + 42, drawing: drawing, table: table)
    }
}
