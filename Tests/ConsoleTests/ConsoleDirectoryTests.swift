import Foundation
import LedgerFixtures
import Testing
import TestSupport

/// The console's search box and its lists (docs/console.md, "Search and lists"), over
/// HTTP: what the page says it accepts, each kind of hit linked to its page, and the list
/// pages with their orders, filter, cursor and refusals.
@Suite("The operator console: search and lists", .bounded)
struct ConsoleDirectoryTests {
    typealias Browser = ConsoleTests.Browser

    @Test("one box finds ids, id prefixes, names, kind:id and journal entries, each linked to its page, and says what it accepts")
    func search() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("vera", role: "viewer")
        try h.f.payer("acme")
        try h.f.project("acme-mobile", payer: "acme")
        try h.f.project("acme-web", payer: "acme")
        try h.f.project("solo")
        let credit = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "100", "--description", "goodwill"])
        let position = try #require(credit["events"]?.arrayValue?.first?["position"]?.int64Value)
        try h.f.app("demo")
        try h.f.subscription("pro.monthly", app: "demo")
        _ = try h.f.adminJSON(["purchase", "record", "--app", "demo", "--user", "user.7", "--product", "pro.monthly",
                               "--id", "web_1", "--at", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z"])
        try h.f.settleAll()
        let browser = h.browser()
        #expect(try browser.signIn("vera", password).status == 303)

        let empty = try browser.send("GET", "/")
        #expect(empty.text.contains("Finds payers, projects, organizations and apps by id, the start of an id, or any part of a name (any case)"))
        #expect(empty.text.contains("journal entries (je_12_0) and App Store transaction ids") && empty.text.contains("payer:acme"))
        #expect(empty.text.contains(#"<nav aria-label="Console"><a href="/">Search</a> · <a href="/browse/payers">Payers</a>"#))

        let prefix = try browser.send("GET", "/?q=acme-")
        #expect(prefix.text.contains(#"href="/usage?account=project%3Aacme-web""#) && prefix.text.contains(#"href="/usage?account=project%3Aacme-mobile""#))
        #expect(!prefix.text.contains(#"href="/usage?account=payer%3Aacme""#), "the payer's id does not start with acme-")
        let web = try #require(prefix.text.range(of: "project%3Aacme-web")), mobile = try #require(prefix.text.range(of: "project%3Aacme-mobile"))
        #expect(web.lowerBound < mobile.lowerBound, "the latest activity first among equal ranks")
        let name = try browser.send("GET", "/?q=Payer%20ACME")
        #expect(name.text.contains(#"<a href="/usage?account=payer%3Aacme">payer acme</a> — Payer acme"#), "\(name.text)")
        let kind = try browser.send("GET", "/?q=project%3Aacme")
        #expect(kind.text.contains("project%3Aacme-web") && !kind.text.contains(#"href="/usage?account=payer%3Aacme""#))
        let entry = try browser.send("GET", "/?q=JE_\(position)_0")
        let link = "/journal?account=payer%3Aacme&amp;after=je_\(position - 1)_2147483647#je_\(position)_0"
        #expect(entry.text.contains("href=\"\(link)\""), "\(entry.text)")
        let journal = try browser.send("GET", link.replacingOccurrences(of: "&amp;", with: "&").components(separatedBy: "#")[0])
        #expect(journal.status == 200 && journal.text.contains("<tr id=\"je_\(position)_0\">"), "the page starts at the entry")
        let user = try browser.send("GET", "/?q=USER.")
        #expect(user.text.contains(#"href="/apps/demo/user?user_id=user.7""#))
        let none = try browser.send("GET", "/?q=zz%25top")
        #expect(none.text.contains("Nothing in the log matches <code>zz%top</code>"))
    }

    @Test("the lists: every kind linked from the navigation, by name and by activity, a filter, a cursor to the next page, and refusals in the console's shape")
    func lists() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("vera", role: "viewer")
        try h.f.payer("acme")
        try h.f.payer("zen")
        try h.f.project("acme-web", payer: "acme")
        try h.f.project("solo")
        _ = try h.f.adminJSON(["org", "create", "--id", "school", "--name", "A School"])
        try h.f.app("demo")
        try h.f.subscription("pro.monthly", app: "demo")
        _ = try h.f.adminJSON(["purchase", "record", "--app", "demo", "--user", "user.7", "--product", "pro.monthly",
                               "--id", "web_1", "--at", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z"])
        try h.f.settleAll()
        let browser = h.browser()
        #expect(try browser.signIn("vera", password).status == 303)

        let payers = try browser.send("GET", "/browse/payers")
        #expect(payers.status == 200 && payers.text.contains(#"href="/usage?account=payer%3Aacme""#) && payers.text.contains(#"href="/usage?account=payer%3Azen""#))
        #expect(payers.text.contains(#"<th scope="col">Last activity</th>"#) && payers.text.contains(#"<strong aria-current="true">by name, A to Z</strong>"#))
        #expect(payers.text.contains(#"href="/browse/payers?sort=activity&amp;order=desc""#))
        let latest = try browser.send("GET", "/browse/payers?sort=activity&order=desc")
        let zen = try #require(latest.text.range(of: "payer%3Azen")), acme = try #require(latest.text.range(of: "payer%3Aacme"))
        #expect(zen.lowerBound < acme.lowerBound, "zen moved last")
        // One a page: the cursor leads to the next, and the last page has none.
        let first = try browser.send("GET", "/browse/payers?limit=1")
        #expect(first.text.contains("payer%3Aacme") && !first.text.contains("payer%3Azen"))
        let next = try #require(first.text.range(of: #"<a rel="next" href=""#).map { String(first.text[$0.upperBound...].prefix { $0 != "\"" }) })
        let second = try browser.send("GET", next.replacingOccurrences(of: "&amp;", with: "&"))
        #expect(second.status == 200 && second.text.contains("payer%3Azen") && !second.text.contains("payer%3Aacme"))
        #expect(!second.text.contains(#"rel="next""#) && second.text.contains("First page"))

        let projects = try browser.send("GET", "/browse/projects?filter=ACME")
        #expect(projects.text.contains("project%3Aacme-web") && !projects.text.contains("project%3Asolo"))
        #expect(try browser.send("GET", "/browse/orgs").text.contains(#"href="/orgs/school""#))
        #expect(try browser.send("GET", "/browse/apps?sort=activity").text.contains(#"href="/apps/demo""#))
        let users = try browser.send("GET", "/browse/users")
        #expect(users.text.contains(#"href="/apps/demo/user?user_id=user.7""#), "\(users.text)")
        #expect(try browser.send("GET", "/browse/users?filter=nobody").text.contains("No users match <code>nobody</code>"))

        for path in ["/browse/payers?cursor=bogus", "/browse/payers?sort=size", "/browse/payers?order=up", "/browse/payers?limit=0",
                     "/browse/projects?cursor=" + String(next.split(separator: "=").last ?? "")] {
            let refused = try browser.send("GET", path)
            #expect(refused.status == 400, "\(path): \(refused.status)")
            #expect(refused.text.contains(#"<p class="error" role="alert">"#) && refused.text.contains(#"<nav aria-label="Console">"#), "\(path)")
        }
        #expect(try browser.send("GET", "/browse/nothing").status == 404)
    }
}
