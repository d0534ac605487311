import LedgerDomain
import LedgerServices

extension Console {
    /// The account's posted balance after each day it posted something, from the first
    /// month the page shows (or the account's creation) to now: the last point is the
    /// balance's `posted` (the same snapshot), so it ends where the page's "Posted" reads.
    static func balanceChart(_ history: BalanceHistory, shared: Bool, now: Timestamp) -> String {
        let start = Timestamp(microseconds: history.from.microseconds - history.from.microseconds % ChartTimeAxis.day) ?? history.from
        let startDay = String(start.iso8601.prefix(10))
        let points = history.points.compactMap { point in
            day(point.date).map { LineChart.Point(at: $0, value: point.posted.value, label: point.date) }
        }
        let unit = ChartUnit.credits
        var rows = [ChartTable.Row("\(startDay) (start)", [ChartTable.Cell("—"),
                                                            ChartTable.Cell(unit.text(history.opening.value),
                                                                            data: [("day", startDay), ("value", history.opening.description)])])]
        rows += history.points.map { point in
            ChartTable.Row(point.date, [ChartTable.Cell(unit.text(point.net.value), data: [("net", point.net.description)]),
                                        ChartTable.Cell(unit.text(point.posted.value),
                                                        data: [("day", point.date), ("value", point.posted.description)])])
        }
        let whose = shared ? "its share of the pool of \(history.pool.description)" : "the pool \(history.pool.description)"
        return LineChart(id: "balance-chart", title: "Posted balance by day, on \(whose)", unit: unit,
                         start: LineChart.Point(at: start, value: history.opening.value, label: startDay), points: points, until: now,
                         valueName: "posted balance",
                         table: ChartTable(columns: ["day (UTC)", "posted that day", "posted after the day"], rows: rows)).figure.html
    }

    /// Each month's charges, in credits.
    static func chargesChart(_ usage: [UsageView]) -> String {
        BarChart(id: "charges-chart", title: "Charges per month", unit: .credits, bars: usage.map {
            BarChart.Bar($0.month, $0.figures.amount.value, data: [("month", $0.month), ("field", "amount")])
        }, valueName: "charges").figure.html
    }

    /// Small multiples: one chart per meter, each in its own unit, side by side.
    static func usageCharts(_ usage: [UsageView]) -> String {
        let meters: [(id: String, field: String, title: String, unit: ChartUnit, value: (UsageView.Figures) -> Int128)] = [
            ("api_requests", "units.api_requests", "API requests", .count("requests"), { $0.units.apiRequests.value }),
            ("stream_events", "units.stream_events", "Stream events", .count("events"), { $0.units.streamEvents.value }),
            ("webhook_deliveries", "units.webhook_deliveries", "Webhook deliveries", .count("deliveries"), { $0.units.webhookDeliveries.value }),
            ("storage_peak", "storage.peak_bytes", "Storage peak", .bytes, { $0.storage.peakBytes.value }),
        ]
        let charts = meters.map { meter in
            BarChart(id: "usage-" + meter.id, title: "\(meter.title) per month", unit: meter.unit, bars: usage.map {
                BarChart.Bar($0.month, meter.value($0.figures), data: [("month", $0.month), ("field", meter.field)])
            }, valueName: meter.title.lowercased(), width: 420, plotHeight: 110).figure.html
        }
        return """
            <figure id="usage-chart" style="margin:1rem 0"><figcaption><strong>Usage per meter per month</strong> (one chart per meter, each in its own unit)</figcaption>
            <div style="display:flex;flex-wrap:wrap;column-gap:2rem">\(charts.joined())</div></figure>
            """
    }

    /// Which plan each source granted when, and the plan in force, each change marked and
    /// linked to its event; bands after `now` are decided and not yet in force.
    static func planTimeline(_ view: OrganizationView) -> String {
        let lanes = view.planLanes.lanes
        let changes = view.planLanes.changes
        let first = min(changes.first ?? view.at, view.created ?? view.at, view.at)
        let last = max(changes.last ?? view.at, view.at)
        // A little room after the last change, so that its band shows.
        let margin = max((last.microseconds - first.microseconds) / 10, ChartTimeAxis.day)
        let until = Timestamp(microseconds: min(last.microseconds + margin, Timestamp.maximum.microseconds)) ?? last
        func name(_ source: PlanSource?) -> String {
            switch source {
            case .staff: "Staff"
            case .billing: "Billing"
            case .appStore: "App Store"
            case nil: "In force"
            }
        }
        func label(_ band: PlanLanes.Band, inForce: Bool) -> String {
            let plan = band.plan?.rawValue ?? "none"
            return inForce ? "\(plan) (\(band.source.map(name)?.lowercased() ?? "default"))" : plan
        }
        let fills: [Plan?: String] = [.free: "#e6e6e6", .plus: "#b3e5fc", .education: "#ffe0b2", .premium: "#c5cae9", nil: "#ffffff"]
        var rows: [ChartTable.Row] = []
        let chartLanes = lanes.map { lane in
            TimelineChart.Lane(name: name(lane.source), empty: "no plan from this source", bands: lane.bands.map { band in
                let text = label(band, inForce: lane.source == nil)
                let link = band.position.map { "/events/\($0)" }
                rows.append(ChartTable.Row(name(lane.source), [
                    ChartTable.Cell(text, data: [("plan", band.plan?.rawValue ?? "none")]), ChartTable.Cell(band.from.iso8601),
                    ChartTable.Cell(band.until?.iso8601 ?? "—"),
                    band.position.map { ChartTable.Cell("position \($0)", link: "/events/\($0)") } ?? ChartTable.Cell("—"),
                ]))
                let until = band.until.map { " until \($0.iso8601)" } ?? ""
                return TimelineChart.Band(from: band.from, until: band.until, label: text,
                                          title: "\(name(lane.source)): \(text) from \(band.from.iso8601)\(until)", fill: fills[band.plan] ?? "#ffffff",
                                          link: link)
            })
        }
        return TimelineChart(id: "plan-timeline", title: "Plans over time, by source and in force", lanes: chartLanes, from: first,
                             until: until, now: view.at,
                             table: ChartTable(columns: ["lane", "plan", "from", "until", "the change's event"], rows: rows)).figure.html
    }

    /// The instant a `YYYY-MM-DD` day starts, UTC.
    static func day(_ text: String) -> Timestamp? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return Timestamp(year: parts[0], month: parts[1], day: parts[2])
    }
}
