@testable import API
import EventStore
import Foundation
import LedgerDomain
import LedgerFixtures
import LedgerServices
import Postgres
import Projections
import Testing
import TestSupport

/// The operator console (docs/console.md), the rest: the catalog page (campaigns, variants, impressions), search by
/// user id, the chain verified with progress, and a projection rebuilt beside the live
/// one, its differences shown, swapped in on confirmation and recorded.
@Suite("The operator console: catalog, verification and rebuilds", .bounded)
struct ConsoleCatalogAndJobsTests {
    typealias Browser = ConsoleTests.Browser

    static func value(_ name: String, in page: String) -> String? {
        page.range(of: "name=\"\(name)\" value=\"").map { String(page[$0.upperBound...].prefix { $0 != "\"" }) }
    }

    @Test("the catalog: an app's products and prices, its campaign's variants with the impressions counted, and a user's purchases found by their id")
    func catalogPage() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("vera", role: "viewer")
        try h.f.app("demo")
        try h.f.subscription("pro.monthly", app: "demo")
        try h.f.subscription("pro.yearly", app: "demo")
        _ = try h.f.adminJSON(["campaign", "migration", "--app", "demo", "--id", "spring", "--product", "pro.yearly",
                               "--eligible", "pro.monthly", "--discount", "20", "--title", "Save", "--message", "m",
                               "--variants", "1:75,2:25", "--rollout", "50"])
        try h.f.append(OfferImpressionsCounted(appID: "demo", counts: [.init(campaignID: "spring", variantID: 1, count: 30),
                                                                      .init(campaignID: "spring", variantID: 2, count: 12),
                                                                      .init(campaignID: "winter", variantID: nil, count: 5)]),
                       stream: "app-demo-impressions")
        _ = try h.f.adminJSON(["purchase", "record", "--app", "demo", "--user", "user.7", "--product", "pro.monthly",
                               "--id", "web_1", "--at", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z"])
        let browser = h.browser()
        #expect(try browser.signIn("vera", password).status == 303)
        try #require(Poll.until(timeout: 20) { (try? browser.send("GET", "/?q=user.7").text.contains("purchases of user")) == true })

        let apps = try browser.send("GET", "/apps")
        #expect(apps.status == 200 && apps.text.contains(#"href="/apps/demo""#))
        let page = try browser.send("GET", "/apps/demo")
        #expect(page.status == 200)
        #expect(page.text.contains("<code>pro.monthly</code>") && page.text.contains("9.99 USD"), "\(page.text)")
        #expect(page.text.contains("Migration campaign <code>spring</code>") && page.text.contains("50 % rollout"))
        #expect(page.text.contains("<tr><td>1</td><td>75 (75 %)</td><td>30</td></tr>"), "variant 1: weight and impressions")
        #expect(page.text.contains("<tr><td>2</td><td>25 (25 %)</td><td>12</td></tr>"))
        #expect(page.text.contains("Impressions of earlier campaigns") && page.text.contains("<code>winter</code>"))
        // A user id finds their purchases across apps; what is typed is escaped where it is shown.
        let found = try browser.send("GET", "/?q=user.7")
        #expect(found.text.contains(#"href="/apps/demo?user=user.7""#), "\(found.text)")
        let purchases = try browser.send("GET", "/apps/demo?user=user.7")
        #expect(purchases.text.contains("Purchases by user.7") && purchases.text.contains("<code>web_1</code>"))
        let typed = try browser.send("GET", "/apps/demo?user=%3Cb%3E")
        #expect(typed.text.contains("No purchase by <code>&lt;b&gt;</code>") && !typed.text.contains("<b>"))
        #expect(try browser.send("GET", "/apps/demo?user=nobody").text.contains("No purchase by <code>nobody</code>"))
        #expect(try browser.send("GET", "/apps/ghost").status == 404)
    }

    @Test("W3, W14: a user's page shows what they hold across StoreKit and the web and their web subscriptions; Stripe events no user could be found for are listed")
    func userPage() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("vera", role: "viewer")
        try h.f.app("demo")
        try h.f.subscription("pro.monthly", app: "demo")
        _ = try h.f.adminJSON(["purchase", "record", "--app", "demo", "--user", "user.7", "--product", "pro.monthly",
                               "--id", "web_1", "--at", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z"])
        func subscription(_ id: String, customer: String, status: String) -> StripeFact {
            .subscription(StripeFact.Subscription(subscriptionID: id, customerID: customer, status: status, productID: "pro.monthly",
                                                  createdAt: t("2026-11-10T00:00:00Z"), periodEnd: t("2026-12-10T00:00:00Z"), trialStart: nil,
                                                  trialEnd: nil, cancelAtPeriodEnd: false, canceledAt: nil, endedAt: nil, deleted: false))
        }
        try h.f.append(StripeEventRecorded(appID: "demo", eventID: "evt_7", eventType: "customer.subscription.updated",
                                           created: t("2026-11-12T00:00:00Z"), livemode: false, account: nil, userID: "user.7",
                                           fact: subscription("sub_7", customer: "cus_7", status: "past_due")), stream: "app-demo-stripe")
        try h.f.append(StripeEventRecorded(appID: "demo", eventID: "evt_orphan", eventType: "customer.subscription.created",
                                           created: t("2026-11-12T00:00:00Z"), livemode: false, account: nil, userID: nil,
                                           fact: subscription("sub_orphan", customer: "cus_orphan", status: "active")), stream: "app-demo-stripe")
        let head = try h.f.head()
        try #require(Poll.until(timeout: 20) {
            (try h.f.rows("SELECT position FROM proj_web._checkpoint").first?.first ?? nil).flatMap { Int64($0) } ?? -1 >= head
        })
        let browser = h.browser()
        #expect(try browser.signIn("vera", password).status == 303)
        let page = try browser.send("GET", "/apps/demo/user?user_id=user.7")
        #expect(page.status == 200, "\(page.text)")
        #expect(page.text.contains("<h2>Holds now</h2>") && page.text.contains("<td>operator</td>") && page.text.contains("<td>stripe</td>"), "\(page.text)")
        #expect(page.text.contains("<td>past_due</td>") && page.text.contains("<code>sub_7</code>"))
        #expect(try browser.send("GET", "/apps/demo?user=user.7").text.contains(#"href="/apps/demo/user?user_id=user.7""#))
        let typed = try browser.send("GET", "/apps/demo/user?user_id=%3Cb%3E")
        #expect(typed.text.contains("<code>&lt;b&gt;</code> holds nothing now") && !typed.text.contains("<b>"))
        #expect(try browser.send("GET", "/apps/demo/user").status == 400)
        #expect(try browser.send("GET", "/apps/ghost/user?user_id=x").status == 404)
        let orphans = try browser.send("GET", "/stripe/unattributed")
        #expect(orphans.status == 200 && orphans.text.contains("<code>evt_orphan</code>") && !orphans.text.contains("<code>evt_7</code>"), "\(orphans.text)")
    }

    @Test("the chain verified on request with its progress shown, by an auditor; a viewer may not start one")
    func verification() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("dora", role: "auditor")
        try h.f.payer("acme")
        for i in 0..<30 {
            _ = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "\(i + 1)", "--description", "d"])
        }
        let browser = h.browser()
        #expect(try browser.signIn("dora", password).status == 303)
        let chain = try browser.send("GET", "/chain")
        let csrf = try #require(Browser.csrf(chain.text))
        #expect(try browser.send("POST", "/chain/verify", form: [("csrf", "forged")]).status == 403)
        let started = try browser.send("POST", "/chain/verify", form: [("csrf", csrf)])
        #expect(started.status == 303 && started.headers["location"] == "/chain")
        // While it runs the page refreshes itself; once done it says what it found.
        var last = ""
        #expect(Poll.until(timeout: 20) {
            last = (try? browser.send("GET", "/chain").text) ?? ""
            return last.contains("<strong>Valid</strong>")
        }, "\(last)")
        #expect(last.contains("started by dora") && !last.contains("http-equiv=\"refresh\""))
        #expect(last.contains("\(try h.f.head()) events"))

        let viewerPassword = try h.addOperator("vic", role: "viewer")
        let viewer = h.browser()
        #expect(try viewer.signIn("vic", viewerPassword).status == 303)
        let viewerCSRF = try #require(Browser.csrf(try viewer.send("GET", "/").text))
        #expect(try viewer.send("POST", "/chain/verify", form: [("csrf", viewerCSRF)]).status == 403)
    }

    @Test("a projection rebuilt from the console: what it changes is shown, nothing is swapped before an operator confirms with a reason, and the swap is recorded as projection.rebuilt")
    func rebuild() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("omar", role: "operator")
        try h.f.payer("acme")
        _ = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"])
        try h.f.settle()
        // A bug's trace: the live projection says something the log does not.
        let superuser = try PostgresConnection(conninfo: h.f.db.superuserURL)
        try superuser.query("UPDATE proj_billing.balances SET credit_grant = credit_grant + 5 WHERE account = 'payer:acme'")

        let browser = h.browser()
        #expect(try browser.signIn("omar", password).status == 303)
        let projections = try browser.send("GET", "/projections")
        #expect(projections.text.contains(#"action="/projections/billing/rebuild""#), "\(projections.text)")
        let csrf = try #require(Browser.csrf(projections.text))
        #expect(try browser.send("POST", "/projections/nothing/rebuild", form: [("csrf", csrf)]).status == 404)
        #expect(try browser.send("POST", "/projections/billing/rebuild", form: [("csrf", "forged")]).status == 403)
        let started = try browser.send("POST", "/projections/billing/rebuild", form: [("csrf", csrf)])
        #expect(started.status == 303 && started.headers["location"] == "/projections/rebuild")
        var page = ""
        try #require(Poll.until(timeout: 30) {
            page = (try? browser.send("GET", "/projections/rebuild").text) ?? ""
            return page.contains("Swap it in")
        }, "\(page)")
        #expect(page.contains("The rebuild changes the projection") && page.contains("<td>balances</td><td>0</td><td>0</td><td>1</td>"))
        #expect(page.contains("<td>payer:acme</td>"), "the account whose figure moves: \(page)")
        // A second rebuild is refused while this one waits for a decision.
        #expect(try browser.send("POST", "/projections/billing/rebuild", form: [("csrf", csrf)]).status == 409)
        let id = try #require(Self.value("id", in: page))
        let key = try #require(Self.value("key", in: page))
        let head = try h.f.head()
        // No reason, no swap; nothing appended, nothing swapped.
        #expect(try browser.send("POST", "/projections/rebuild/decide", form: [("csrf", csrf), ("id", id), ("key", key), ("choice", "swap"), ("reason", " ")]).status == 422)
        #expect(try h.f.head() == head)
        // A viewer sees the page but not the form, and may not decide.
        let viewerPassword = try h.addOperator("val", role: "viewer")
        let viewer = h.browser()
        #expect(try viewer.signIn("val", viewerPassword).status == 303)
        #expect(!(try viewer.send("GET", "/projections/rebuild").text.contains("Swap it in")))
        let viewerCSRF = try #require(Browser.csrf(try viewer.send("GET", "/").text))
        #expect(try viewer.send("POST", "/projections/rebuild/decide", form: [("csrf", viewerCSRF), ("id", id), ("key", key), ("choice", "swap"), ("reason", "r")]).status == 403)

        let decided = try browser.send("POST", "/projections/rebuild/decide",
                                       form: [("csrf", csrf), ("id", id), ("key", key), ("choice", "swap"), ("reason", "fix of the grant fold")])
        #expect(decided.status == 303)
        try #require(Poll.until(timeout: 30) {
            page = (try? browser.send("GET", "/projections/rebuild").text) ?? ""
            return page.contains("Recorded as")
        }, "\(page)")
        // The live projection is the log's again, and the act is in the log with its name and reason.
        #expect(try superuser.query("SELECT credit_grant::text FROM proj_billing.balances WHERE account = 'payer:acme'")[0].string(0) == "1000")
        let record = try #require(try h.f.store.log.readStream("projection-billing").last)
        #expect(record.type == ProjectionRebuilt.type)
        let fact = try record.decode(ProjectionRebuilt.self)
        #expect(fact.projection == "billing" && fact.accountsChanged == 1)
        #expect(fact.tables == [ProjectionRebuilt.Table(table: "balances", added: 0, removed: 0, changed: 1)])
        let metadata = try #require(try record.metadata())
        #expect(metadata.actor == Actor(.operator, "omar") && metadata.reason == "fix of the grant fold")
        #expect(page.contains("href=\"/events/\(record.position)\""))
        // The same form sent again (a double click) records nothing more.
        let again = try browser.send("POST", "/projections/rebuild/decide",
                                     form: [("csrf", csrf), ("id", id), ("key", key), ("choice", "swap"), ("reason", "again")])
        #expect(again.status == 303)
        #expect(try h.f.store.log.readStream("projection-billing").filter { $0.type == ProjectionRebuilt.type }.count == 1)

        // Discarded: nothing swapped, nothing recorded.
        try superuser.query("UPDATE proj_billing.balances SET credit_grant = credit_grant + 7 WHERE account = 'payer:acme'")
        #expect(try browser.send("POST", "/projections/billing/rebuild", form: [("csrf", csrf)]).status == 303)
        try #require(Poll.until(timeout: 30) {
            page = (try? browser.send("GET", "/projections/rebuild").text) ?? ""
            return page.contains("Swap it in")
        })
        let second = try #require(Self.value("id", in: page))
        #expect(second != id)
        // The first rebuild's form cannot decide this one.
        #expect(try browser.send("POST", "/projections/rebuild/decide", form: [("csrf", csrf), ("id", id), ("key", key), ("choice", "discard")]).status == 409)
        #expect(try browser.send("GET", "/projections/rebuild").text.contains("Swap it in"))
        #expect(try browser.send("POST", "/projections/rebuild/decide", form: [("csrf", csrf), ("id", second), ("choice", "discard")]).status == 303)
        #expect(Poll.until(timeout: 10) { (try? browser.send("GET", "/projections/rebuild").text.contains("Discarded")) == true })
        #expect(try superuser.query("SELECT credit_grant::text FROM proj_billing.balances WHERE account = 'payer:acme'")[0].string(0) == "1007")
        #expect(try h.f.store.log.readStream("projection-billing").filter { $0.type == ProjectionRebuilt.type }.count == 1)
    }

    @Test("a rebuild nobody decides about is discarded after its timeout, and a decision that comes later is refused")
    func undecidedRebuild() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.settle()
        let jobs = ConsoleJobs(database: LedgerDatabase(store: f.store, connections: f.pool), projectorConninfo: f.db.projectorURL, readyTimeout: 0.5)
        let id = try jobs.startRebuild(projectionNamed: "billing", by: "omar", now: Timestamp.minimum)
        #expect(Poll.until(timeout: 30) { jobs.currentRebuild?.phase == .discarded })
        #expect(!jobs.decide(id, .swap(operatorName: "omar", reason: "late", key: "k")))
        #expect(jobs.currentRebuild?.phase == .discarded)
        // The rebuild lock is free again: another rebuild starts and reaches its decision.
        let next = try jobs.startRebuild(projectionNamed: "billing", by: "omar", now: Timestamp.minimum)
        #expect(next != id)
        #expect(Poll.until(timeout: 30) { [.ready, .discarded].contains(jobs.currentRebuild?.phase) })
    }
}
