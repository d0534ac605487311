import LedgerDomain

/// Lanes of bands over time (a Gantt chart): which plan each source granted when, and the
/// plan in force. Each band is named inside it when it is wide enough, and in its
/// tooltip; the instant it begins is marked, and the mark links to the event that began
/// it; a band that begins after `now` (decided, not yet in force) is dashed. A pure
/// function of its numbers.
public struct TimelineChart: Sendable {
    public struct Band: Sendable {
        public var from: Timestamp
        /// nil: to the axis's end.
        public var until: Timestamp?
        /// Written in the band.
        public var label: String
        /// Its tooltip, the whole story.
        public var title: String
        public var fill: String
        /// The mark at its start links there (an event's page).
        public var link: String?

        public init(from: Timestamp, until: Timestamp?, label: String, title: String, fill: String, link: String?) {
            self.from = from
            self.until = until
            self.label = label
            self.title = title
            self.fill = fill
            self.link = link
        }
    }

    public struct Lane: Sendable {
        public var name: String
        public var bands: [Band]
        /// Written along a lane without bands.
        public var empty: String

        public init(name: String, empty: String = "nothing", bands: [Band]) {
            self.name = name
            self.bands = bands
            self.empty = empty
        }
    }

    public var id: String
    public var title: String
    public var lanes: [Lane]
    public var from: Timestamp
    public var until: Timestamp
    /// Drawn as a line labelled "now".
    public var now: Timestamp?
    public var table: ChartTable
    public var width: Int

    public init(id: String, title: String, lanes: [Lane], from: Timestamp, until: Timestamp, now: Timestamp?, table: ChartTable,
                width: Int = 760) {
        self.id = id
        self.title = title
        self.lanes = lanes
        self.from = from
        self.until = until
        self.now = now
        self.table = table
        self.width = width
    }

    static let laneHeight = 26, laneGap = 10

    /// The chart, drawn.
    public var figure: ChartFigure {
        let left = max(60, Int(lanes.map { ChartFigure.textWidth($0.name) }.max() ?? 0) + 16), right = width - 16, top = 24
        let time = ChartTimeAxis(from: from, until: until, maximumTicks: max(2, (right - left) / 110))
        let bottom = top + lanes.count * (Self.laneHeight + Self.laneGap)
        let n = ChartFigure.number
        func x(_ at: Timestamp) -> Double { time.x(at, left: left, right: right) }
        var drawing = time.drawing(left: left, right: right, bottom: bottom)
        for (i, lane) in lanes.enumerated() {
            let y = top + i * (Self.laneHeight + Self.laneGap) + Self.laneGap / 2
            drawing += "<text x=\"\(left - 8)\" y=\"\(y + Self.laneHeight / 2 + 4)\" text-anchor=\"end\" font-weight=\"bold\">\(HTML.escape(lane.name))</text>"
                + "<line x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y + Self.laneHeight / 2)\" y2=\"\(y + Self.laneHeight / 2)\" stroke=\"#ddd\"/>"
            if lane.bands.isEmpty {
                drawing += "<text x=\"\(left + 6)\" y=\"\(y + Self.laneHeight / 2 - 4)\" fill=\"#555\">\(HTML.escape(lane.empty))</text>"
            }
            for band in lane.bands where band.until.map({ $0 > time.from }) ?? true && band.from <= time.until {
                let x0 = x(band.from), x1 = x(band.until ?? time.until)
                let planned = now.map { band.from > $0 } ?? false
                drawing += "<g><title>\(HTML.escape(band.title))</title>"
                    + "<rect x=\"\(n(x0))\" y=\"\(y)\" width=\"\(n(max(1, x1 - x0)))\" height=\"\(Self.laneHeight)\" fill=\"\(HTML.escape(band.fill))\" "
                    + "stroke=\"#333\"\(planned ? " stroke-dasharray=\"4 3\"" : "")/>"
                if ChartFigure.textWidth(band.label) + 8 <= x1 - x0 {
                    drawing += "<text x=\"\(n(x0 + 5))\" y=\"\(y + Self.laneHeight / 2 + 4)\">\(HTML.escape(band.label))</text>"
                }
                // The change: a mark at the band's start, a link to its event when it has one.
                let mark = "<path d=\"M\(n(x0)) \(y - 4) l-4 -5 h8 z\" fill=\"#b00020\"/>"
                drawing += (band.link.map { "<a href=\"\(HTML.escape($0))\">\(mark)</a>" } ?? mark) + "</g>"
            }
        }
        if let now, now >= time.from, now <= time.until {
            let at = n(x(now))
            drawing += "<g aria-hidden=\"true\"><line x1=\"\(at)\" x2=\"\(at)\" y1=\"\(top - 6)\" y2=\"\(bottom)\" stroke=\"#e36c09\" stroke-width=\"2\"/>"
                + "<text x=\"\(at)\" y=\"\(top - 10)\" text-anchor=\"middle\" fill=\"#8a3c00\">now</text></g>"
        }
        let bands = lanes.map(\.bands.count).reduce(0, +)
        let summary = "\(lanes.count) lanes (\(lanes.map(\.name).joined(separator: ", "))) of \(bands) bands, "
            + "\(time.ticks.first?.label ?? from.iso8601) to \(time.ticks.last?.label ?? until.iso8601)."
        return ChartFigure(id: id, title: title, summary: summary, width: width, height: bottom + 42, drawing: drawing, table: table)
    }
}
