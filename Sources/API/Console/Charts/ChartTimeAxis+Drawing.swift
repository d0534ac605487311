import LedgerDomain

extension ChartTimeAxis {
    /// The x of `instant` in a plot from `left` to `right`.
    func x(_ instant: Timestamp, left: Int, right: Int) -> Double {
        Double(left) + fraction(instant) * Double(right - left)
    }

    /// The ticks under the plot (its bottom at `bottom`) with their labels, and the axis's
    /// title under them.
    func drawing(left: Int, right: Int, bottom: Int, title: String = "date (UTC)") -> String {
        var out = "<g aria-hidden=\"true\"><line x1=\"\(left)\" x2=\"\(right)\" y1=\"\(bottom)\" y2=\"\(bottom)\" stroke=\"#333\"/>"
        for tick in ticks {
            let x = ChartFigure.number(self.x(tick.at, left: left, right: right))
            out += "<line x1=\"\(x)\" x2=\"\(x)\" y1=\"\(bottom)\" y2=\"\(bottom + 5)\" stroke=\"#333\"/>"
            out += "<text x=\"\(x)\" y=\"\(bottom + 17)\" text-anchor=\"middle\">\(HTML.escape(tick.label))</text>"
        }
        out += "<text x=\"\((left + right) / 2)\" y=\"\(bottom + 32)\" text-anchor=\"middle\" font-weight=\"bold\">\(HTML.escape(title))</text></g>"
        return out
    }
}
