extension ChartAxis {
    /// The y of `value` in a plot `height` high whose top is at `top`.
    func y(_ value: Int128, top: Int, height: Int) -> Double {
        Double(top + height) - fraction(value) * Double(height)
    }

    /// The width the tick labels need left of the plot, and a little room.
    func labelsWidth(_ unit: ChartUnit) -> Int {
        Int(unit.ticks(ticks).map(ChartFigure.textWidth).max() ?? 0) + 14
    }

    /// Gridlines across the plot at each tick with its label left of it, zero's line
    /// darker, the axis line, and the axis's title (its unit) above the labels.
    func drawing(_ unit: ChartUnit, left: Int, right: Int, top: Int, height: Int) -> String {
        var out = "<g aria-hidden=\"true\">"
        for (tick, label) in zip(ticks, unit.ticks(ticks)) {
            let y = ChartFigure.number(self.y(tick, top: top, height: height))
            out += "<line x1=\"\(left)\" x2=\"\(right)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"\(tick == 0 ? "#555" : "#ddd")\"/>"
            out += "<text x=\"\(left - 6)\" y=\"\(y)\" dy=\"4\" text-anchor=\"end\">\(HTML.escape(label))</text>"
        }
        out += "<line x1=\"\(left)\" x2=\"\(left)\" y1=\"\(top)\" y2=\"\(top + height)\" stroke=\"#333\"/>"
        out += "<text x=\"4\" y=\"\(top - 12)\" font-weight=\"bold\">\(HTML.escape(unit.title))</text></g>"
        return out
    }
}
