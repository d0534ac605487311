import Foundation
import LedgerDomain
import LedgerFixtures
import Testing
import TestSupport

/// The console in a real browser (headless Chromium, driven through the
/// DevTools protocol): sign in, search, open a timeline, follow a correction to its
/// original, verify the chain, open the catalog, a CSRF and a role refusal, post a
/// correction and see it in the journal, rebuild a projection and swap it in. The test command
/// installs Chromium; without it this test fails, naming what to install.
@Suite("The console in a real browser", .bounded)
struct ConsoleBrowserTests {
    @Test("an auditor finds a correction and its original, and sees an account's and an organization's charts drawn; an operator posts one; CSRF and roles refuse")
    func browser() throws {
        let h = try ConsoleTests.Harness()
        // The console reads at the log's time (an admin act's business time is when it is
        // appended), two weeks on: the balance chart has days to draw.
        let today = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1e6))!
        func later(days: Int64) -> Timestamp { Timestamp(microseconds: today.microseconds + days * 86_400_000_000)! }
        h.clock.set(later(days: 14).iso8601)
        let auditorPassword = try h.addOperator("ada", role: "auditor")
        let operatorPassword = try h.addOperator("otto", role: "operator")
        try h.f.payer("acme")
        let credit = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "goodwill"])
        let creditPosition = try #require(credit["events"]?.arrayValue?.first?["position"]?.int64Value)
        _ = try h.f.adminJSON(["correct", "--entry", "je_\(creditPosition)_0", "--amount", "-400"], reason: "half of it was a duplicate")
        // A project of acme's with usage, credits dated later, and an organization whose plan changed twice.
        _ = try h.f.adminJSON(["price", "set", "--unit-price", "2", "--storage-price-per-gib-month", "1000"])
        try h.f.project("shop", payer: "acme")
        try h.f.usage("shop", .apiRequests, 42_000, at: today.iso8601)
        try h.f.usage("shop", .webhookDeliveries, 1_200, at: today.iso8601)
        try h.f.usage("shop", .storageBytes, 734_003_200, at: today.iso8601)
        for (days, amount) in [(Int64(3), 250_000), (9, 120_000)] {
            _ = try h.f.append(CreditPosted(pool: .payer("acme"), source: .purchase, amount: Millicredits(amount), description: "top-up"),
                               stream: "payer-acme", occurredAt: later(days: days))
        }
        _ = try h.f.adminJSON(["org", "create", "--id", "school", "--name", "A School"])
        _ = try h.f.adminJSON(["org", "plan", "--org", "school", "--source", "billing", "--plan", "plus"])
        _ = try h.f.adminJSON(["org", "plan", "--org", "school", "--source", "staff", "--plan", "premium"])
        try h.f.app("demo")
        try h.f.subscription("pro.monthly", app: "demo")
        try h.f.subscription("pro.yearly", app: "demo")
        _ = try h.f.adminJSON(["campaign", "migration", "--app", "demo", "--id", "spring", "--product", "pro.yearly",
                               "--eligible", "pro.monthly", "--discount", "20", "--title", "Save", "--message", "m", "--variants", "1:50,2:50"])
        try h.f.settle()
        let chromium = try Chromium()
        let base = "http://127.0.0.1:\(h.server.port)"
        var shots: [(String, [UInt8])] = []

        // The auditor: signed out, every page leads to the sign-in form.
        let auditor = try chromium.newTab()
        try auditor.go(base + "/")
        #expect(try auditor.path == "/login")
        shots.append(("login", try auditor.screenshot()))
        try auditor.fill("name", "ada")
        try auditor.fill("password", auditorPassword)
        try auditor.andWait("document.querySelector('main form').requestSubmit()")
        #expect(try auditor.path == "/")
        #expect(try auditor.text.contains("ada (auditor)"))
        try auditor.fill("q", "acme")
        try auditor.andWait("document.querySelector('form[role=search]').requestSubmit()")
        shots.append(("search", try auditor.screenshot()))
        try auditor.andWait(#"document.querySelector('a[href^="/timeline"]').click()"#)
        #expect(try auditor.text.contains("Timeline of payer acme"))
        #expect(try auditor.text.contains("half of it was a duplicate"))
        shots.append(("timeline", try auditor.screenshot()))
        // The correction names its original: follow the link.
        try auditor.andWait("[...document.querySelectorAll('a')].find(a => a.textContent === 'position \(creditPosition)').click()")
        #expect(try auditor.path == "/events/\(creditPosition)")
        #expect(try auditor.text.contains("Corrected by"))
        shots.append(("event", try auditor.screenshot()))
        try auditor.andWait(#"[...document.querySelectorAll('a')].find(a => a.textContent === 'Corrections').click()"#)
        try auditor.fill("account", "payer:acme")
        try auditor.andWait("document.querySelector('main form').requestSubmit()")
        #expect(try auditor.text.contains("1 correction, oldest first"))
        #expect(try auditor.evaluate(#"document.querySelector('a[download]').getAttribute('href')"#).stringValue == "/corrections.csv?account=payer%3Aacme")
        shots.append(("corrections", try auditor.screenshot()))
        // The chain, verified with its progress shown (the page refreshes itself until done).
        try auditor.andWait(#"[...document.querySelectorAll('a')].find(a => a.textContent === 'Chain').click()"#)
        try auditor.andWait(#"document.querySelector('form[action="/chain/verify"]').requestSubmit()"#)
        #expect(Poll.until(timeout: 20) { (try? auditor.text.contains("Valid:")) == true })
        shots.append(("chain", try auditor.screenshot()))
        // The catalog: an app's products, its campaign and the variants' impressions.
        try auditor.andWait(#"[...document.querySelectorAll('a')].find(a => a.textContent === 'Catalog').click()"#)
        try auditor.andWait(#"document.querySelector('a[href="/apps/demo"]').click()"#)
        #expect(try auditor.text.contains("Migration campaign spring"))
        shots.append(("catalog", try auditor.screenshot()))
        // The account's charts and the organization's plan timeline are drawn, not only sent:
        // each SVG has a box with a width and a height in the page as laid out.
        let drawn = "[...document.querySelectorAll('figure svg')].filter(s => { const b = s.getBBox(); return b.width > 0 && b.height > 0 }).length"
        try auditor.go(base + "/usage?account=payer%3Aacme")
        #expect(try auditor.evaluate("document.querySelectorAll('figure svg').length").int64Value == 6, "balance, charges, four meters")
        #expect(try auditor.evaluate(drawn).int64Value == 6)
        #expect(try auditor.evaluate("document.querySelector('#balance-chart path').getTotalLength() > 100").boolValue == true, "the balance's line")
        #expect(try auditor.evaluate("document.querySelector('#usage-api_requests rect[data-value=\"42000\"]').getBBox().height > 50").boolValue == true)
        #expect(try auditor.text.contains("Posted balance by day"))
        shots.append(("account", try auditor.screenshot()))
        try auditor.go(base + "/orgs/school")
        #expect(try auditor.evaluate(drawn).int64Value == 1)
        #expect(try auditor.evaluate("document.querySelectorAll('#plan-timeline svg a').length").int64Value ?? 0 >= 3, "the changes link their events")
        shots.append(("organization", try auditor.screenshot()))
        // An auditor may not act; a form whose token was changed is refused.
        try auditor.go(base + "/acts/correct")
        #expect(try auditor.text.contains("needs the role operator"))
        try auditor.go(base + "/")
        try auditor.evaluate(#"document.querySelector('form[action="/logout"] input[name=csrf]').value = 'forged'"#)
        try auditor.andWait(#"document.querySelector('form[action="/logout"]').requestSubmit()"#)
        #expect(try auditor.text.contains("Form refused"))
        try auditor.go(base + "/")
        #expect(try auditor.path == "/", "the refused sign-out changed nothing")

        // The operator, in a browser of their own, posts a correction through its confirmation.
        let operatorTab = try chromium.newTab()
        try operatorTab.go(base + "/login")
        try operatorTab.fill("name", "otto")
        try operatorTab.fill("password", operatorPassword)
        try operatorTab.andWait("document.querySelector('main form').requestSubmit()")
        try operatorTab.go(base + "/acts/correct?entry=je_\(creditPosition)_0")
        try operatorTab.fill("amount", "-100")
        try operatorTab.fill("reason", "a browser's correction")
        try operatorTab.andWait("document.querySelector('main form').requestSubmit()")
        #expect(try operatorTab.text.contains("Confirm: correct a journal entry"))
        shots.append(("confirm-correction", try operatorTab.screenshot()))
        let head = try h.f.head()
        try operatorTab.andWait("document.querySelector('main form').requestSubmit()")
        #expect(try operatorTab.path.hasPrefix("/events/"))
        #expect(try operatorTab.text.contains("Corrects"))
        #expect(try h.f.head() == head + 1)
        try operatorTab.go(base + "/timeline?subject=payer%3Aacme")
        #expect(try operatorTab.text.contains("a browser's correction"))
        try operatorTab.go(base + "/journal?account=payer%3Aacme")
        #expect(Poll.until(timeout: 20) {
            try? operatorTab.go(base + "/journal?account=payer%3Aacme")
            return (try? operatorTab.text.contains("-100")) == true
        }, "the correction is in the journal once the projection has it")
        shots.append(("journal", try operatorTab.screenshot()))
        // A projection rebuilt beside the live one: what it changes, then the swap on confirmation.
        try operatorTab.go(base + "/projections")
        try operatorTab.andWait(#"document.querySelector('form[action="/projections/billing/rebuild"]').requestSubmit()"#)
        #expect(Poll.until(timeout: 30) { (try? operatorTab.text.contains("Swap it in")) == true })
        #expect(try operatorTab.text.contains("Unchanged"))
        try operatorTab.fill("reason", "checking the fold after an upgrade")
        shots.append(("rebuild", try operatorTab.screenshot()))
        try operatorTab.andWait(#"document.querySelector('button[value=swap]').click()"#)
        #expect(Poll.until(timeout: 30) { (try? operatorTab.text.contains("Recorded as")) == true })

        for (name, png) in shots {
            #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]) && png.count > 5_000, "\(name): not a drawn page")
        }
        // `LEDGER_CONSOLE_SCREENSHOTS=DIR` keeps them (docs/console.md shows them).
        if let directory = ProcessInfo.processInfo.environment["LEDGER_CONSOLE_SCREENSHOTS"] {
            for (name, png) in shots { try Data(png).write(to: URL(fileURLWithPath: "\(directory)/\(name).png")) }
        }
    }
}
