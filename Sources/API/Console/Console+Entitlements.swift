import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// One user of an app: what they hold now across StoreKit and the web
    /// (`EntitlementsQuery`, the read of `GET /v1/iap/entitlements` and `ledger admin user
    /// show`), and every web subscription the payment processor's facts tell of.
    func userPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let app = request.pathParameters["id"] ?? ""
        let user = String((request.query("user_id") ?? "").prefix(300))
        guard !user.isEmpty else {
            throw Problem(status: 400, code: "invalid_request", title: "Which user?", detail: "Give a user id: /apps/\(app)/user?user_id=…")
        }
        guard let view = try queries.answer(EntitlementsQuery(app: app, user: user), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "No such app", detail: "The catalog has no app \(app).")
        }
        func time(_ t: Timestamp?) -> String { HTML.escape(t?.iso8601 ?? "—") }
        let held = view.entitlements.map { e in
            let trial = e.trial.map { t in
                [t.mode.rawValue, t.endsAt.map { "until \($0.iso8601)" }, t.upfrontPaid.map { "upfront \($0) ¢" }, t.hold.map { "hold \($0.rawValue)" }]
                    .compactMap { $0 }.joined(separator: ", ")
            } ?? "—"
            return """
                <tr><td><code>\(HTML.escape(e.productID))</code></td><td>\(HTML.escape(e.source.rawValue))</td><td>\(HTML.escape(e.status))</td>
                <td>\(time(e.expiresAt))</td><td>\(e.willRenew.map { $0 ? "yes" : "no" } ?? "unknown")</td><td>\(HTML.escape(trial))</td>
                <td>\(HTML.escape(e.recordedBy.rawValue))</td><td><code>\(HTML.escape(e.purchaseID))</code></td></tr>
                """
        }.joined()
        let subscriptions = view.web.subscriptions.map { s in
            let notes = [s.paymentFailed ? "payment failed" : nil, s.disputed ? "disputed" : nil, s.cancelAtPeriodEnd ? "cancels at period end" : nil,
                         s.revokedAt.map { "revoked \($0.iso8601)" }].compactMap { $0 }
            return """
                <tr><td><code>\(HTML.escape(s.subscriptionID))</code></td><td><code>\(HTML.escape(s.productID ?? "—"))</code></td>
                <td>\(HTML.escape(s.status.rawValue))</td><td>\(HTML.escape(s.stripeStatus))</td><td>\(time(s.accessEndsAt))</td>
                <td>\(HTML.escape(notes.isEmpty ? "—" : notes.joined(separator: ", ")))</td></tr>
                """
        }.joined()
        return HTML.page(title: "User \(user) of \(app)", body: """
            <p><a href="/apps/\(HTML.query(app))">App \(HTML.escape(app))</a> · as of \(time(view.asOf)), log position \(view.position)</p>
            <h2>Holds now</h2>
            \(held.isEmpty ? "<p role=\"status\"><code>\(HTML.escape(user))</code> holds nothing now.</p>" : """
                <table><thead><tr><th scope="col">Product</th><th scope="col">Source</th><th scope="col">Status</th><th scope="col">Expires</th>
                <th scope="col">Renews</th><th scope="col">Trial</th><th scope="col">Recorded by</th><th scope="col">Purchase</th></tr></thead>
                <tbody>\(held)</tbody></table>
                """)
            <h2>Web subscriptions</h2>
            \(subscriptions.isEmpty ? "<p>None.</p>" : """
                <table><thead><tr><th scope="col">Subscription</th><th scope="col">Product</th><th scope="col">Status</th>
                <th scope="col">Stripe's status</th><th scope="col">Access ends</th><th scope="col">Notes</th></tr></thead>
                <tbody>\(subscriptions)</tbody></table>
                """)
            """, signedIn: viewer.frame)
    }

    /// The Stripe events no user could be found for (W3), newest first.
    func unattributedPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let found = try queries.answer(UnattributedStripeEventsQuery(), as: viewer.reader) ?? []
        let rows = found.map { u in
            """
            <tr><td>\(u.position)</td><td>\(HTML.escape(u.event.appID))</td><td><code>\(HTML.escape(u.event.eventID))</code></td>
            <td>\(HTML.escape(u.event.eventType))</td><td>\(HTML.escape(u.event.created.iso8601))</td>
            <td><code>\(HTML.escape(u.event.fact.links.joined(separator: " ")))</code></td></tr>
            """
        }.joined()
        return HTML.page(title: "Stripe events without a user", body: rows.isEmpty
            ? "<p role=\"status\">Every Stripe event recorded reaches a user.</p>" : """
            <p>Recorded, never dropped: these name no user and share no Stripe id with an event that does.</p>
            <table><thead><tr><th scope="col">Position</th><th scope="col">App</th><th scope="col">Event</th><th scope="col">Type</th>
            <th scope="col">Created</th><th scope="col">Stripe ids</th></tr></thead><tbody>\(rows)</tbody></table>
            """, signedIn: viewer.frame)
    }
}
