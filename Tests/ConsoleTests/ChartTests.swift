import API
import LedgerDomain
import Testing
import TestSupport

/// The console's charts are pure functions from numbers to SVG: round ticks, every mark
/// inside its plot, sensible pictures of nothing, one point, zeros and negatives, and
/// escaped labels.
@Suite("Charts draw their numbers as SVG", .bounded)
struct ChartTests {
    /// Whether every tag of `text` is closed in order (the SVG is well formed XML, as
    /// far as its tags go).
    static func balanced(_ text: String) -> Bool {
        var stack: [Substring] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return false }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") { continue }
            let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
            if tag.hasPrefix("/") {
                guard stack.popLast() == name else { return false }
            } else if !tag.hasSuffix("/") && !["input", "br", "meta"].contains(name) {
                stack.append(name)
            }
        }
        return stack.isEmpty
    }

    /// The numbers of attribute `name` on every `element` of `svg`.
    static func numbers(_ svg: String, _ element: String, _ name: String) -> [Double] {
        svg.components(separatedBy: "<\(element) ").dropFirst().compactMap { rest in
            let tag = " " + rest.prefix { $0 != ">" }
            guard let range = tag.range(of: " \(name)=\"") else { return nil }
            return Double(tag[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func isNice(_ step: Int128, binary: Bool) -> Bool {
        var m = step
        if binary { while m >= 1_024 && m % 1_024 == 0 { m /= 1_024 } }
        while m >= 10 && m % 10 == 0 { m /= 10 }
        return [1, 2, 5].contains(m) || (binary && m == 1)
    }

    @Test("ticks are round, evenly spaced, hold zero and every value, and stay few")
    func ticks() throws {
        try Property.check("chart ticks", count: 400) { rng, _ in
            let unit = rng.pick([ChartUnit.count("requests"), .credits, .bytes])
            let scale = rng.pick([Int128(1), 1_000, 1_000_000, 1 << 30, 1_000_000_000_000])
            let values = (0..<rng.int(0...14)).map { _ in Int128(rng.int(-1_000...1_000)) * scale / Int128(rng.int(1...1_000)) }
            let axis = ChartAxis(values, unit: unit)
            let ticks = axis.ticks
            #expect(Self.isNice(axis.step, binary: unit == .bytes), "step \(axis.step) of \(values)")
            #expect(ticks.contains(0) && ticks.first == axis.lower && ticks.last == axis.upper)
            #expect(values.allSatisfy { axis.lower <= $0 && $0 <= axis.upper })
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1 - $0 == axis.step })
            #expect((2...7).contains(ticks.count), "\(ticks.count) ticks for \(values)")
            #expect(Set(unit.ticks(ticks)).count == ticks.count, "no two ticks read the same: \(unit.ticks(ticks))")
        }
        #expect(ChartAxis([7_200, 12_000], unit: .count("requests")).ticks == [0, 5_000, 10_000, 15_000])
        #expect(ChartUnit.credits.ticks(ChartAxis([1_500_000], unit: .credits).ticks) == ["0", "500", "1,000", "1,500"])
        #expect(ChartUnit.bytes.ticks(ChartAxis([900 << 20], unit: .bytes).ticks) == ["0", "500 MiB", "1,000 MiB"])
        #expect(ChartUnit.credits.ticks(ChartAxis([], unit: .credits).ticks) == ["0", "1", "2", "3", "4"], "nothing: round credits")
        #expect(ChartAxis([-2_500, 1_000], unit: .credits).ticks == [-3_000, -2_000, -1_000, 0, 1_000])
    }

    @Test("a unit's ticks and figures read as the console writes them")
    func units() {
        #expect(ChartUnit.credits.tick(1_212_230) == "1,212.23" && ChartUnit.credits.text(1_212_230) == "1,212.23 credits")
        #expect(ChartUnit.credits.tick(-500) == "-0.5")
        #expect(ChartUnit.bytes.tick(943_718_400) == "900 MiB" && ChartUnit.bytes.title.hasPrefix("bytes"))
        // Bytes' ticks in one unit, exactly: never 1.25 GiB rounded to 1.3.
        #expect(ChartUnit.bytes.ticks([0, 256 << 20, 512 << 20, 768 << 20, 1_024 << 20, 1_280 << 20])
                == ["0", "256 MiB", "512 MiB", "768 MiB", "1,024 MiB", "1,280 MiB"])
        #expect(ChartUnit.bytes.ticks([0, 512 << 20, 1 << 30, 1_536 << 20]) == ["0", "0.5 GiB", "1 GiB", "1.5 GiB"])
        #expect(ChartUnit.bytes.ticks([0, 1, 2]) == ["0", "1 byte", "2 bytes"])
        #expect(ChartUnit.count("requests").text(11_000) == "11,000 requests")
    }

    @Test("bars stay inside the plot, negative ones hang from zero, and the table holds each figure")
    func bars() throws {
        let chart = BarChart(id: "c", title: "Charges", unit: .credits,
                             bars: [.init("2026-09", 3_000), .init("2026-10", -1_500, data: [("month", "2026-10")]), .init("2026-11", 0)],
                             valueName: "charges", width: 400, plotHeight: 100).figure
        let html = chart.html
        #expect(Self.balanced(html), "\(html)")
        #expect(html.contains(#"<svg role="img" aria-labelledby="c-title c-desc""#) && html.contains("<figcaption id=\"c-caption\"><strong>Charges</strong>"))
        #expect(html.contains(">credits</text>"), "the axis names its unit")
        let ys = Self.numbers(chart.drawing, "rect", "y"), heights = Self.numbers(chart.drawing, "rect", "height")
        #expect(ys.count == 3)
        for (y, height) in zip(ys, heights) { #expect(y >= 30 && y + height <= 130.01, "\(y) + \(height)") }
        let xs = Self.numbers(chart.drawing, "rect", "x"), widths = Self.numbers(chart.drawing, "rect", "width")
        for (x, width) in zip(xs, widths) { #expect(x >= 48 && x + width <= 400) }
        // The negative bar starts at zero's line and goes down.
        let zeroLine = try #require(chart.drawing.components(separatedBy: "<line ").first { $0.contains("stroke=\"#555\"") })
        let zero = try #require(Self.numbers("<line " + zeroLine, "line", "y1").first)
        #expect(abs(ys[1] - zero) < 0.11 && abs(ys[0] + heights[0] - zero) < 0.11, "\(ys) \(heights) \(zero)")
        #expect(html.contains(#"<td data-month="2026-10" data-value="-1500">-1.5 credits</td>"#), "\(html)")
        #expect(html.contains(#"<details><summary>The numbers of this chart</summary><table><caption>Charges</caption>"#))
    }

    @Test("nothing, one point and all zeros draw an axis and say so, rather than divide by zero")
    func degenerate() {
        let empty = BarChart(id: "e", title: "Nothing", unit: .count("requests"), bars: [], valueName: "requests").figure
        #expect(empty.html.contains("No figures yet.") && empty.html.contains("No requests yet.") && Self.balanced(empty.html))
        let zeros = BarChart(id: "z", title: "Zeros", unit: .bytes, bars: [.init("2026-11", 0), .init("2026-12", 0)], valueName: "peak").figure
        #expect(Self.numbers(zeros.drawing, "rect", "height") == [0, 0] && !zeros.html.contains("nan") && Self.balanced(zeros.html))
        let now = Timestamp(microseconds: 1_790_000_000_000_000)!
        let one = LineChart(id: "l", title: "One", unit: .credits, start: .init(at: now, value: 5_000, label: "start"), points: [],
                            until: now, valueName: "posted").figure
        #expect(Self.balanced(one.html) && !one.html.contains("nan") && !one.html.contains("inf"))
        #expect(Self.numbers(one.drawing, "circle", "data-value") == [5_000])
    }

    @Test("a step line holds each value until the next point, inside its plot, down to negative balances")
    func line() throws {
        func at(_ text: String) -> Timestamp { Timestamp(microseconds: Int64(RFC3339Fixture.micros(text)))! }
        let chart = LineChart(id: "b", title: "Balance", unit: .credits, start: .init(at: at("2026-09-01"), value: 0, label: "2026-09-01"),
                              points: [.init(at: at("2026-09-03"), value: 1_500_000, label: "2026-09-03"),
                                       .init(at: at("2026-10-01"), value: -20_000, label: "2026-10-01")],
                              until: at("2026-11-15"), valueName: "posted balance", width: 500, plotHeight: 100).figure
        #expect(Self.balanced(chart.html))
        let cx = Self.numbers(chart.drawing, "circle", "cx"), cy = Self.numbers(chart.drawing, "circle", "cy")
        #expect(cx.count == 3 && cx == cx.sorted() && cx.allSatisfy { $0 >= 48 && $0 <= 484 })
        #expect(cy.allSatisfy { $0 >= 30 && $0 <= 130 } && cy[1] < cy[0] && cy[2] > cy[0], "up, then below zero")
        #expect(Self.numbers(chart.drawing, "circle", "data-value") == [0, 1_500_000, -20_000])
        #expect(chart.drawing.contains(" H484\"") || chart.drawing.contains(" H484 "), "the last value holds to the right end")
        #expect(chart.drawing.contains(">2026-10</text>") && chart.drawing.contains(">date (UTC)</text>"), "month ticks, a titled axis")
    }

    @Test("time ticks: few, inside the span, on round instants of a unit that fits it")
    func time() {
        let start = Timestamp(microseconds: 1_790_000_000_000_000)!
        for (hours, label) in [(2, 16), (24 * 20, 10), (24 * 200, 7), (24 * 365 * 30, 4)] {
            let axis = ChartTimeAxis(from: start, until: Timestamp(microseconds: start.microseconds + Int64(hours) * 3_600_000_000)!)
            #expect(!axis.ticks.isEmpty && axis.ticks.count <= 6, "\(hours) h: \(axis.ticks.map(\.label))")
            #expect(axis.ticks.allSatisfy { $0.at >= axis.from && $0.at <= axis.until && $0.label.count == label }, "\(axis.ticks)")
        }
        #expect(ChartTimeAxis(from: start, until: start).until > start, "an empty span is a day")
    }

    @Test("labels are escaped wherever they are written")
    func escaping() {
        let evil = "<script>alert(\"x\")</script>&"
        let bar = BarChart(id: "x\"y", title: evil, unit: .count(evil), bars: [.init(evil, 3, data: [("field", evil)])], valueName: evil).figure.html
        let t0 = Timestamp(microseconds: 1_790_000_000_000_000)!, t1 = Timestamp(microseconds: 1_795_000_000_000_000)!
        let timeline = TimelineChart(id: "t", title: evil, lanes: [.init(name: evil, bands: [
            .init(from: t0, until: nil, label: evil, title: evil, fill: "#fff\"/><script>", link: "/events/1?\"<"),
        ])], from: t0, until: t1, now: t0, table: ChartTable(columns: [evil], rows: [.init(evil, [.init(evil, link: "/x?\"")])])).figure.html
        for html in [bar, timeline] {
            #expect(!html.contains("<script") && html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;"))
            #expect(Self.balanced(html))
        }
        #expect(bar.contains(#"id="x&quot;y""#))
    }

    @Test("a timeline draws each lane's bands between their instants, marks and links each change, and dashes what is not yet in force")
    func timeline() {
        let day: Int64 = 86_400_000_000
        let t0 = Timestamp(microseconds: 1_790_000_000_000_000)!
        func t(_ days: Int64) -> Timestamp { Timestamp(microseconds: t0.microseconds + days * day)! }
        let chart = TimelineChart(id: "p", title: "Plans", lanes: [
            .init(name: "Staff", bands: [.init(from: t(10), until: t(40), label: "premium", title: "premium", fill: "#c5cae9", link: "/events/7"),
                                         .init(from: t(40), until: nil, label: "free", title: "free", fill: "#e6e6e6", link: nil)]),
            .init(name: "In force", bands: [.init(from: t(0), until: t(10), label: "free (default)", title: "free", fill: "#e6e6e6", link: nil),
                                            .init(from: t(10), until: nil, label: "premium (staff)", title: "p", fill: "#c5cae9", link: "/events/7")]),
        ], from: t(0), until: t(50), now: t(30), table: ChartTable(columns: ["lane"], rows: []), width: 600).figure
        #expect(Self.balanced(chart.html))
        let xs = Self.numbers(chart.drawing, "rect", "x"), widths = Self.numbers(chart.drawing, "rect", "width")
        #expect(xs.count == 4 && zip(xs, widths).allSatisfy { $0 >= 60 && $0 + $1 <= 584.05 }, "\(xs) \(widths)")
        #expect(abs(xs[0] + widths[0] - xs[1]) < 0.11, "a band ends where the next begins")
        #expect(chart.drawing.components(separatedBy: "<a href=\"/events/7\">").count == 3, "each change with an event links to it")
        #expect(chart.drawing.components(separatedBy: "stroke-dasharray").count == 2, "the band decided for after now is dashed")
        #expect(chart.drawing.contains(">now</text>") && chart.drawing.contains(">premium (staff)</text>"))
    }
}

/// Instants of the tests, from `YYYY-MM-DD`.
enum RFC3339Fixture {
    static func micros(_ day: String) -> Int64 {
        let parts = day.split(separator: "-").map { Int($0)! }
        return Timestamp(year: parts[0], month: parts[1], day: parts[2])!.microseconds
    }
}
