import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// Every app of the IAP catalog, each linked to its page.
    func appsPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        guard let listings = try queries.answer(AppsQuery(), as: viewer.reader) else { throw Self.catalogNotThereYet }
        let rows = listings.map(\.app).map { app in
            """
            <tr><td><a href="/apps/\(HTML.query(app.id))">\(HTML.escape(app.id))</a></td><td>\(HTML.escape(app.name))</td>
            <td>\(HTML.escape(app.bundleID))</td><td>\(app.enabled ? "yes" : "no")</td></tr>
            """
        }.joined()
        return HTML.page(title: "Catalog", body: rows.isEmpty ? "<p role=\"status\">No app is configured.</p>" : """
            <p><a href="/stripe/unattributed">Stripe events no user could be found for</a></p>
            <table><thead><tr><th scope="col">App</th><th scope="col">Name</th><th scope="col">Bundle id</th><th scope="col">Enabled</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """, signedIn: viewer.frame)
    }

    /// One app's catalog as the SDKs are served it: products with their web and StoreKit
    /// prices, checkout, the migration and upgrade campaigns with their variants and the
    /// impressions counted for each, and, with `user`, that user's purchases.
    func appPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        let user = String((request.query("user") ?? "").prefix(300))
        guard let view = try queries.answer(AppQuery(id, purchasesBy: user.isEmpty ? nil : user), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "No such app", detail: "The catalog has no app \(id).")
        }
        let (record, app, impressions) = (view.app, view.catalog, view.impressions)
        func price(_ p: Price?) -> String { p.map { "\(DecimalMicros.format($0.amountMicros)) \($0.currencyCode)" } ?? "—" }
        let products = app.products.map { p in
            """
            <tr><td><code>\(HTML.escape(p.id))</code></td><td>\(HTML.escape(p.displayName))</td><td>\(HTML.escape(p.type.rawValue))</td>
            <td>\(HTML.escape(price(p.webPrice)))</td><td>\(HTML.escape(price(app.storeKitPrices[p.id])))</td>
            <td>\(HTML.escape(p.subscriptionPeriod ?? "—"))</td><td>\(HTML.escape(p.freeTrialDuration.map { "\($0) (\(p.trial?.mode.rawValue ?? "free"))" } ?? "—"))</td></tr>
            """
        }.joined()
        let keys = record.keys.map { "<li><code>\(HTML.escape($0.prefix))…</code> \(HTML.escape($0.mode))\($0.revoked ? " (revoked)" : "")</li>" }.joined()
        let checkout = app.checkout
        let jurisdictions = CheckoutConfig.Region.allCases.compactMap { region in
            checkout.jurisdictions[region].map { "\(region.rawValue): \($0.sheetType.rawValue), \($0.isEnabled ? "enabled" : "disabled")" }
        }
        var campaigns = ""
        if let m = app.migration {
            campaigns += campaign(kind: "Migration", id: m.campaignID, targeting: m.targeting, impressions: impressions, details: """
                <tr><th scope="row">Offers</th><td><code>\(HTML.escape(m.productID))</code> at \(m.discountPercent) % off, to holders of
                \(HTML.escape(m.eligibleProductIDs.joined(separator: ", ")))</td></tr>
                <tr><th scope="row">Title</th><td>\(HTML.escape(m.title))</td></tr>
                """)
        }
        if let u = app.upgrade {
            let paths = u.upgradePaths.map { "<code>\(HTML.escape($0.fromProductID))</code> → <code>\(HTML.escape($0.toProductID))</code> (\(HTML.escape($0.upgradeType.rawValue)))" }
            campaigns += campaign(kind: "Upgrade", id: u.campaignID, targeting: u.targeting, impressions: impressions, details: """
                <tr><th scope="row">Paths</th><td>\(paths.joined(separator: "<br>"))</td></tr>
                """)
        }
        // Impressions of campaigns no longer configured stay counted: show them too.
        let current = Set([app.migration?.campaignID, app.upgrade?.campaignID].compactMap { $0 })
        let former = impressions.filter { !current.contains($0.campaignID) }.map {
            "<tr><td><code>\(HTML.escape($0.campaignID))</code></td><td>\($0.variantID.map(String.init) ?? "none")</td><td>\($0.count)</td></tr>"
        }.joined()
        if !former.isEmpty {
            campaigns += """
                <h3>Impressions of earlier campaigns</h3><table><thead><tr><th scope="col">Campaign</th><th scope="col">Variant</th>
                <th scope="col">Impressions</th></tr></thead><tbody>\(former)</tbody></table>
                """
        }
        return HTML.page(title: "App \(id)", body: """
            <table>
            <tr><th scope="row">Name</th><td>\(HTML.escape(record.name))</td></tr>
            <tr><th scope="row">Bundle id</th><td>\(HTML.escape(app.bundleID))</td></tr>
            <tr><th scope="row">Enabled</th><td>\(app.enabled ? "yes" : "no")</td></tr>
            <tr><th scope="row">Publishable keys</th><td>\(keys.isEmpty ? "none" : "<ul>\(keys)</ul>")</td></tr>
            <tr><th scope="row">Checkout</th><td>\(checkout.sheetType.rawValue), \(checkout.isEnabled ? "enabled" : "disabled")\(jurisdictions.isEmpty ? "" : "; " + HTML.escape(jurisdictions.joined(separator: "; ")))</td></tr>
            <tr><th scope="row">Events</th><td><a href="/timeline?subject=\(HTML.query("app:" + id))">the app's timeline</a></td></tr>
            <tr><th scope="row">Catalog as of</th><td>position \(view.position)</td></tr>
            </table>
            <h2>Products</h2>
            \(products.isEmpty ? "<p>None.</p>" : """
                <table><thead><tr><th scope="col">Product</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Web price</th>
                <th scope="col">StoreKit price</th><th scope="col">Period</th><th scope="col">Trial</th></tr></thead><tbody>\(products)</tbody></table>
                """)
            <h2>Campaigns</h2>
            \(campaigns.isEmpty ? "<p>None.</p>" : campaigns)
            \(userPurchases(app: id, user: user, purchases: view.purchases))
            """, signedIn: viewer.frame)
    }

    private func campaign(kind: String, id: String, targeting t: CampaignTargeting,
                          impressions: [CampaignImpressions], details: String) -> String {
        let counted = Dictionary(impressions.filter { $0.campaignID == id }.map { ($0.variantID ?? -1, $0.count) }, uniquingKeysWith: +)
        let totalWeight = max(1, t.variants.reduce(0) { $0 + $1.weight })
        let arms = t.variants.isEmpty
            ? "<tr><td>none (no experiment)</td><td>—</td><td>\(counted[-1] ?? 0)</td></tr>"
            : t.variants.map { v in
                "<tr><td>\(v.id)</td><td>\(v.weight) (\(v.weight * 100 / totalWeight) %)</td><td>\(counted[v.id] ?? 0)</td></tr>"
            }.joined()
        let days = "\(t.minSubscriptionDays)" + (t.maxSubscriptionDays.map { " to \($0)" } ?? " or more")
        return """
            <h3>\(kind) campaign <code>\(HTML.escape(id))</code></h3>
            <table>\(details)
            <tr><th scope="row">Who</th><td>subscribed \(days) days, \(t.rolloutPercent) % rollout\(t.freeTrialDays > 0 ? ", \(t.freeTrialDays) trial days" : "")</td></tr>
            </table>
            <table><caption>Variants and impressions</caption><thead><tr><th scope="col">Variant</th><th scope="col">Weight</th>
            <th scope="col">Impressions</th></tr></thead><tbody>\(arms)</tbody></table>
            """
    }

    /// A form for a user id, and that user's purchases with the app when one is given.
    private func userPurchases(app: String, user: String, purchases: [UserPurchase]?) -> String {
        var list = ""
        if let purchases {
            let rows = purchases.map { p in
                """
                <tr><td>\(HTML.escape(p.source.rawValue))</td><td><code>\(HTML.escape(p.originalID))</code></td><td><code>\(HTML.escape(p.productID))</code></td>
                <td>\(HTML.escape(p.purchasedAt.iso8601))</td><td>\(HTML.escape(p.expiresAt?.iso8601 ?? "—"))</td>
                <td>\(HTML.escape(p.revokedAt?.iso8601 ?? "—"))</td><td>\(p.trial ? "yes" : "no")</td></tr>
                """
            }.joined()
            let holds = "<p><a href=\"/apps/\(HTML.query(app))/user?user_id=\(HTML.query(user))\">What \(HTML.escape(user)) holds now, across StoreKit and the web</a></p>"
            list = holds + (rows.isEmpty ? "<p role=\"status\">No purchase by <code>\(HTML.escape(user))</code> with this app.</p>" : """
                <table><caption>Purchases by \(HTML.escape(user))</caption><thead><tr><th scope="col">Source</th><th scope="col">Original id</th>
                <th scope="col">Product</th><th scope="col">Purchased</th><th scope="col">Expires</th><th scope="col">Revoked</th>
                <th scope="col">Trial</th></tr></thead><tbody>\(rows)</tbody></table>
                """)
        }
        return """
            <h2>A user's purchases</h2>
            <form method="get" action="/apps/\(HTML.query(app))"><label for="user">User id</label>
            <input id="user" name="user" value="\(HTML.escape(user))" size="40"> <button type="submit">Show</button></form>
            \(list)
            """
    }

    static let catalogNotThereYet = Problem(status: 503, code: "projection_not_ready", title: "Catching up",
                                            detail: "The catalog projection is not created yet: is the projector running?", retryAfter: 1)
}
