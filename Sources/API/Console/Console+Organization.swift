import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// Why an organization is on its plan: the plan now and where it comes from, its plans
    /// over time drawn per source and in force, each timeline's changes as they take
    /// effect (a downgrade at the month's end, O-rules),
    /// and its App Store subscriptions, each linked to the timeline of its notifications.
    func organizationPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        guard let view = try queries.answer(OrganizationQuery(id), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "No such organization", detail: "There is no organization \(id).")
        }
        let (org, snapshot, now) = (view.organization, view.snapshot, view.at)
        let current = view.current
        let education: String
        switch view.education {
        case .staff(eligible: true): education = "yes (decided by staff)"
        case .staff(eligible: false): education = "no (decided by staff)"
        case .domain(let domain): education = "by its domain \(domain)"
        case .undecided: education = "no"
        }
        var timelines = ""
        for (name, timeline) in [("Staff decisions", snapshot.plans.staff), ("Billing", snapshot.plans.billing)] {
            let rows = timeline.segments.map { "<tr><td>\(HTML.escape($0.plan?.rawValue ?? "none"))</td><td>\(HTML.escape($0.from.iso8601))</td></tr>" }.joined()
            timelines += "<h2>\(name)</h2>" + (rows.isEmpty ? "<p>No change.</p>"
                : "<table><thead><tr><th scope=\"col\">Plan</th><th scope=\"col\">In force from</th></tr></thead><tbody>\(rows)</tbody></table>")
        }
        let subscriptions = snapshot.plans.subscriptions.map { s -> String in
            let stream = AppStoreTransactionFacts.stream(originalTransactionID: s.originalTransactionID)
            return """
                <tr><td><a href="/timeline?subject=\(HTML.query("stream:" + stream))">\(HTML.escape(s.originalTransactionID))</a></td>
                <td>\(HTML.escape(snapshot.environments[s.originalTransactionID] ?? "?"))</td><td>\(HTML.escape(s.holder ?? "—"))</td>
                <td>\(HTML.escape(s.latest.map { "\($0.productID) (\($0.plan.rawValue))" } ?? "no transaction"))</td>
                <td>\(HTML.escape(s.latest?.expires?.iso8601 ?? "—"))</td><td>\(HTML.escape(s.status(at: now).rawValue))</td>
                <td>\(s.notes.isEmpty ? "—" : s.notes.map(HTML.escape).joined(separator: "<br>"))</td></tr>
                """
        }.joined()
        let refunds = try refundRequestsSection(org: org.id, viewer)
        let pending = view.pending.map { "<strong>\(HTML.escape($0.plan.rawValue))</strong> from \(HTML.escape($0.source?.rawValue ?? "the default")), on \(HTML.escape($0.from.iso8601))" } ?? "none"
        // Why: every event of the organization and of its subscriptions, with who and why,
        // as the timeline reads them (the same query), newest first.
        let history = try queries.answer(TimelineQuery(.org(org.id), limit: 500), as: viewer.reader)?.events ?? []
        let changes = history.reversed().map { event -> String in
            let metadata = try? event.metadata()
            return """
                <tr><td><a href="/events/\(event.position)">\(event.position)</a></td><td>\(HTML.escape(event.occurredAt.iso8601))</td>
                <td><code>\(HTML.escape(event.type))</code></td><td>\(HTML.escape(metadata?.actor.description ?? ""))</td>
                <td>\(HTML.escape(metadata?.reason ?? "—"))</td></tr>
                """
        }.joined()
        return HTML.page(title: "Organization \(org.id)", body: """
            <table>
            <tr><th scope="row">Name</th><td>\(HTML.escape(org.name))</td></tr>
            <tr><th scope="row">Plan now</th><td><strong>\(HTML.escape(current.plan.rawValue))</strong>, from \(HTML.escape(current.source?.rawValue ?? "nothing: the default"))</td></tr>
            <tr><th scope="row">Next change</th><td>\(pending)</td></tr>
            <tr><th scope="row">Education</th><td>\(HTML.escape(education))</td></tr>
            <tr><th scope="row">Administrators</th><td>\(HTML.escape(org.admins.isEmpty ? "none" : org.admins.joined(separator: ", ")))</td></tr>
            <tr><th scope="row">Events</th><td><a href="/timeline?subject=\(HTML.query("org:" + org.id))">the organization's timeline</a></td></tr>
            </table>
            \(Self.planTimeline(view))
            \(timelines)
            <h2>App Store subscriptions</h2>
            \(subscriptions.isEmpty ? "<p>None.</p>" : """
                <table><thead><tr><th scope="col">Original transaction (its notifications)</th><th scope="col">Environment</th>
                <th scope="col">Holder</th><th scope="col">Product</th><th scope="col">Expires</th><th scope="col">Status</th>
                <th scope="col">What Apple said</th></tr></thead>
                <tbody>\(subscriptions)</tbody></table>
                """)
            \(refunds)
            <h2>Every change, newest first</h2>
            \(changes.isEmpty ? "<p>None.</p>" : """
                <table><caption>What changed the organization and its subscriptions: who, and why</caption><thead><tr>
                <th scope="col">Event</th><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Reason</th></tr></thead>
                <tbody>\(changes)</tbody></table>
                """)
            """, signedIn: viewer.frame)
    }
}
