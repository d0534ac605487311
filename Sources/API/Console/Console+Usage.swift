import HTTP
import LedgerDomain
import Projections

extension Console {
    /// An account's balance by source, and its last twelve months: each month's status,
    /// its projects' metered usage and charges, with a bar chart of the API requests.
    func usagePage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let text = request.query("account") ?? ""
        guard let pool = Pool(text) else {
            throw Problem(status: 400, code: "invalid_account", title: "Not an account", detail: "account is payer:ID or project:ID.")
        }
        let now = Self.timestamp(settings.now())
        var months: [UTCMonth] = [UTCMonth(containing: now)]
        while months.count < 12, let last = months.last, let earlier = last.month == 1 ? UTCMonth(year: last.year - 1, month: 12) : UTCMonth(year: last.year, month: last.month - 1) { months.append(earlier) }
        months.reverse()
        let (balance, views) = try BillingReadModel(pool: self.pool).snapshot(now: now) { snapshot in
            (try snapshot.balance(pool.description, pool: pool), try months.map { try snapshot.poolMonth(pool, $0.description) })
        }
        func requests(_ view: BillingSnapshot.PoolMonthView?) -> Int128 {
            view?.meters.values.reduce(Int128(0)) { $0 + $1.apiRequests.value } ?? 0
        }
        let rows = zip(months, views).map { month, view -> String in
            let meters = view?.meters.values
            let events = meters?.reduce(Int128(0)) { $0 + $1.streamEvents.value } ?? 0
            return """
                <tr><td>\(month)</td><td>\(HTML.escape(view?.status ?? "—"))</td><td style="text-align:right">\(requests(view))</td>
                <td style="text-align:right">\(events)</td><td style="text-align:right">\(view?.freeUsed ?? 0)</td></tr>
                """
        }.joined()
        let credits = [("plan credits", balance.creditPlan), ("purchased", balance.creditPurchase), ("granted", balance.creditGrant),
                       ("corrections", balance.correction), ("usage posted", balance.usagePosted), ("holds posted", balance.holdPosted),
                       ("held now", balance.holdHeld)]
            .map { "<tr><th scope=\"row\">\($0.0)</th><td style=\"text-align:right\">\($0.1)</td></tr>" }.joined()
        return HTML.page(title: "Balance and usage of \(text)", body: """
            <p><a href="/journal?account=\(HTML.query(text))">The journal</a> lists every entry behind these sums.</p>
            <table><caption>Balance by source, in millicredits</caption>\(credits)</table>
            <h2>Usage by month</h2>
            \(Self.barChart(months.map(\.description), zip(months, views).map { requests($0.1) }, label: "API requests per month"))
            <table><thead><tr><th scope="col">Month</th><th scope="col">Status</th><th scope="col">API requests</th>
            <th scope="col">Stream events</th><th scope="col">Free units used</th></tr></thead><tbody>\(rows)</tbody></table>
            """, signedIn: viewer.frame)
    }

    /// A bar chart in SVG, with the numbers as text too: readable without colour, and
    /// labelled for screen readers.
    static func barChart(_ labels: [String], _ values: [Int128], label: String) -> String {
        let width = 60, height = 160, top = values.max() ?? 0
        var bars = ""
        for (i, (name, value)) in zip(labels, values).enumerated() {
            let h = top > 0 ? Int(value * Int128(height) / top) : 0
            let x = i * width + 10
            bars += """
                <g><title>\(HTML.escape(name)): \(value)</title><rect x="\(x)" y="\(height - h + 20)" width="\(width - 16)" height="\(h)" fill="#0b3d91"/>
                <text x="\(x + (width - 16) / 2)" y="\(height + 36)" font-size="11" text-anchor="middle">\(HTML.escape(String(name.suffix(5))))</text>
                <text x="\(x + (width - 16) / 2)" y="\(max(14, height - h + 16))" font-size="11" text-anchor="middle">\(value)</text></g>
                """
        }
        return """
            <svg role="img" aria-label="\(HTML.escape(label))" width="\(labels.count * width + 20)" height="\(height + 44)" viewBox="0 0 \(labels.count * width + 20) \(height + 44)" xmlns="http://www.w3.org/2000/svg"><title>\(HTML.escape(label))</title>\(bars)</svg>
            """
    }
}
