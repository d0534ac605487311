import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// An account's balance and its last twelve months of usage, exactly as the API answers
    /// them (`GET …/balance` and `…/usage`): the same views, built by the same code in one
    /// snapshot, rendered here: no second formula. Each figure carries
    /// its field's path in the API's answer (`data-field`) and its raw value (`data-value`).
    func usagePage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let text = request.query("account") ?? ""
        guard let pool = Pool(text) else {
            throw Problem(status: 400, code: "invalid_account", title: "Not an account", detail: "account is payer:ID or project:ID.")
        }
        let account: BillingAccount
        switch pool {
        case .payer(let id): account = .payer(id)
        case .project(let id): account = .project(id)
        }
        let now = settings.now()
        var months: [UTCMonth] = [UTCMonth(containing: now)]
        while months.count < 12, let last = months.last, let earlier = last.month == 1 ? UTCMonth(year: last.year - 1, month: 12) : UTCMonth(year: last.year, month: last.month - 1) { months.append(earlier) }
        months.reverse()
        guard let (balance, usage, history) = try queries.answer(AccountOverviewQuery(account, months: months), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "No such account", detail: "There is no \(account.kind) \(account.id).")
        }
        let rows = usage.map { month -> String in
            let f = month.figures
            // The raw value stays in `data-value` (the API's field) and on hover; the cell shows it as people read it.
            func cell(_ field: String, _ value: String, shown: String) -> String {
                "<td style=\"text-align:right\" data-month=\"\(month.month)\" data-field=\"\(field)\" data-value=\"\(HTML.escape(value))\" title=\"\(HTML.escape(value))\">\(HTML.escape(shown))</td>"
            }
            func count(_ field: String, _ q: Quantity) -> String { cell(field, q.description, shown: q.groupedText) }
            func bytes(_ field: String, _ q: Quantity) -> String { cell(field, q.description, shown: q.bytesText) }
            func money(_ field: String, _ m: Millicredits) -> String { cell(field, m.description, shown: m.creditsText) }
            return "<tr><td>\(month.month)</td><td>\(HTML.escape(month.status.rawValue))</td>"
                + count("units.api_requests", f.units.apiRequests) + count("units.stream_events", f.units.streamEvents)
                + count("units.webhook_deliveries", f.units.webhookDeliveries) + count("units.free_used", f.units.freeUsed)
                + count("units.billed", f.units.billed) + money("units.amount", f.units.amount)
                + bytes("storage.peak_bytes", f.storage.peakBytes) + bytes("storage.billed_bytes", f.storage.billedBytes)
                + money("storage.amount", f.storage.amount) + money("amount", f.amount) + "</tr>"
        }.joined()
        return HTML.page(title: "Balance and usage of \(text)", body: """
            <p><a href="/journal?account=\(HTML.query(text))">The journal</a> lists every entry behind these sums. These are the
            figures <code>GET /v1/\(account.kind)s/\(HTML.escape(account.id))/balance</code> and <code>…/usage</code> answer,
            shown in credits (1 credit = 1,000 millicredits, the API's unit, which each figure shows beside it or on hover).</p>
            \(Self.balanceHTML(balance.current, field: ""))
            \(balance.otherPools.enumerated().map { i, part in
                "<h3>Earlier on the pool of \(HTML.escape(part.payer.kind)) \(HTML.escape(part.payer.id))</h3>" + Self.balanceHTML(part, field: "other_pools.\(i).")
            }.joined())
            <h2>Over time</h2>
            <p>Each chart's numbers are in the table under it (<em>The numbers of this chart</em>).</p>
            \(Self.balanceChart(history, shared: balance.current.scope != "pool", now: now))
            \(Self.chargesChart(usage))
            \(Self.usageCharts(usage))
            <h2>Usage by month</h2>
            <table><thead><tr><th scope="col">Month</th><th scope="col">Status</th><th scope="col">API requests</th>
            <th scope="col">Stream events</th><th scope="col">Webhook deliveries</th><th scope="col">Free units used</th>
            <th scope="col">Billed units</th><th scope="col">Units amount</th><th scope="col">Storage peak</th>
            <th scope="col">Billed storage</th><th scope="col">Storage amount</th><th scope="col">Amount</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """, signedIn: viewer.frame)
    }

    /// The totals a billing person reads first (posted, held, available), then what they are
    /// made of, as `BalanceView.PoolBalance` holds them.
    static func balanceHTML(_ b: BalanceView.PoolBalance, field prefix: String) -> String {
        func row(_ label: String, _ field: String, _ value: Millicredits?) -> String {
            let shown = value.map { "\($0.creditsText) <small>(\($0.description) mc)</small>" } ?? "—"
            return "<tr><th scope=\"row\">\(label)</th><td style=\"text-align:right\" data-field=\"\(prefix)\(field)\" data-value=\"\(value?.description ?? "")\">\(shown)</td></tr>"
        }
        let scope = b.scope == "pool" ? "the whole pool" : "its own share of the pool of payer \(HTML.escape(b.payer.id)) (U6: the payer holds the credit)"
        var rows = row("Posted", "posted", b.posted) + row("Held", "held", b.held)
            + row("Available", "available", b.available)
        if let sources = b.sources {
            rows += row("&nbsp;from plan credits", "sources.plan.posted", sources.plan.posted)
                + row("&nbsp;purchased", "sources.purchase.posted", sources.purchase.posted)
                + row("&nbsp;granted", "sources.grant.posted", sources.grant.posted)
                + row("&nbsp;corrections", "sources.correction.posted", sources.correction.posted)
        }
        rows += row("&nbsp;usage posted", "consumption.usage.posted", b.consumption.usage.posted)
            + row("&nbsp;usage not yet posted (held)", "consumption.usage.held", b.consumption.usage.held)
            + row("&nbsp;holds captured", "consumption.hold.posted", b.consumption.hold.posted)
            + row("&nbsp;holds open (held)", "consumption.hold.held", b.consumption.hold.held)
        return "<table><caption>Balance: \(scope), in credits (millicredits, mc, beside)</caption>\(rows)</table>"
    }
}
