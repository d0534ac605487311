import Foundation
import LedgerDomain
import LedgerFixtures
import Testing
import TestSupport

/// The account page's and the organization page's charts (docs/console.md, "Charts"):
/// each a titled figure with an SVG image and the same numbers in a table, drawn from
/// the figures the page reads; the balance line ends on the page's Posted.
@Suite("The console's charts", .bounded)
struct ConsoleChartsTests {
    typealias Browser = ConsoleTests.Browser

    /// The balance chart's table, in order: each day and the posted balance after it.
    static func balancePoints(_ page: String) -> [(day: String, value: String)] {
        page.components(separatedBy: "<td data-day=\"").dropFirst().map { rest in
            let day = String(rest.prefix { $0 != "\"" })
            let value = rest.range(of: "data-value=\"").map { String(rest[$0.upperBound...].prefix { $0 != "\"" }) } ?? ""
            return (day, value)
        }
    }

    /// The figure with `id`, whole.
    static func figure(_ page: String, _ id: String) -> String? {
        guard let start = page.range(of: "<figure id=\"\(id)\"") else { return nil }
        var depth = 0
        var index = start.lowerBound
        while let close = page[index...].range(of: "</figure>") {
            if let next = page[index...].range(of: "<figure"), next.lowerBound < close.lowerBound {
                depth += 1
                index = next.upperBound
            } else {
                depth -= 1
                index = close.upperBound
                if depth == 0 { return String(page[start.lowerBound..<index]) }
            }
        }
        return nil
    }

    @Test("an account's balance by day, charges and each meter's usage: titled, with their tables; the balance ends on Posted")
    func accountCharts() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("cora", role: "viewer")
        let f = h.f
        // The log's business time (`occurred_at`) of an admin act is when it is appended; the credits
        // dated later make days of their own, and the console reads the page ten days on.
        f.clock.set("2026-09-02T10:00:00Z")
        try f.payer("acme")
        try f.project("acme-web", payer: "acme")
        try f.project("solo")
        let grant = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1500000", "--description", "opening"])
        let grantPosition = try #require(grant["events"]?.arrayValue?.first?["position"]?.int64Value)
        // Usage is priced as it is folded: the price first.
        _ = try f.adminJSON(["price", "set", "--unit-price", "3", "--storage-price-per-gib-month", "0"])
        try f.usage("acme-web", .apiRequests, 12_000, at: "2026-09-10T00:00:00Z")
        try f.usage("acme-web", .storageBytes, 943_718_400, at: "2026-09-11T00:00:00Z")
        try f.usage("acme-web", .webhookDeliveries, 300, at: "2026-10-03T00:00:00Z")
        try f.usage("acme-web", .streamEvents, 4_000, at: "2026-11-03T00:00:00Z")
        try f.usage("solo", .apiRequests, 50_000, at: "2026-09-12T00:00:00Z")
        try f.settle()
        f.clock.set("2026-10-01T02:00:00Z")
        _ = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-09"])
        _ = try f.adminJSON(["month", "close", "--pool", "project:solo", "--month", "2026-09"])
        _ = try f.adminJSON(["correct", "--entry", "je_\(grantPosition)_0", "--amount", "-400"], reason: "a duplicate")
        let today = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1e6))!
        func later(days: Int64) -> Timestamp { Timestamp(microseconds: today.microseconds + days * 86_400_000_000)! }
        for (days, amount) in [(Int64(1), 20_000), (3, 7_500)] {
            _ = try f.append(CreditPosted(pool: .payer("acme"), source: .purchase, amount: Millicredits(amount), description: "top-up"),
                             stream: "payer-acme", occurredAt: later(days: days))
        }
        try f.settle()
        h.clock.set(later(days: 10).iso8601)
        let browser = h.browser()
        #expect(try browser.signIn("cora", password).status == 303)

        for account in ["payer:acme", "project:acme-web", "project:solo"] {
            let page = try browser.send("GET", "/usage?account=" + account)
            #expect(page.status == 200, "\(account): \(page.text.prefix(300))")
            // The three charts, and one small chart per meter inside the usage figure.
            for id in ["balance-chart", "charges-chart", "usage-chart", "usage-api_requests", "usage-stream_events",
                       "usage-webhook_deliveries", "usage-storage_peak"] {
                let figure = try #require(Self.figure(page.text, id), "\(account) has \(id)")
                #expect(figure.contains("<figcaption"), "\(account) \(id): a visible title")
                if id != "usage-chart" {
                    #expect(figure.contains("<svg role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\"") && figure.contains("<title id=\"\(id)-title\">"))
                    #expect(figure.contains("<details><summary>The numbers of this chart</summary><table><caption>"), "\(account) \(id): its table")
                    #expect(figure.contains("font-weight=\"bold\">"), "\(account) \(id): titled axes")
                }
            }
            #expect(Self.figure(page.text, "usage-storage_peak")?.contains(">bytes (binary units)</text>") == true)
            #expect(Self.figure(page.text, "charges-chart")?.contains(">credits</text>") == true)
            // The balance's last point is the page's Posted, in the table and on the line.
            let posted = try #require(ConsoleFiguresTests.figures(page.text)["posted"])
            let points = Self.balancePoints(page.text)
            #expect(points.last?.value == posted, "\(account): \(points) against posted \(posted)")
            let circles = try #require(Self.figure(page.text, "balance-chart")).components(separatedBy: "<circle ").dropFirst()
            let lastCircle = circles.last.map { c in c.range(of: "data-value=\"").map { String(c[$0.upperBound...].prefix { $0 != "\"" }) } ?? "" }
            #expect(lastCircle == posted, "\(account): the line ends on \(lastCircle ?? "nothing")")
        }

        // The payer: opening at its creation, then the days it posted something, each once.
        let acme = try browser.send("GET", "/usage?account=payer:acme").text
        let days = Self.balancePoints(acme).map(\.day)
        #expect(days.count >= 3 && days == days.sorted() && Set(days.dropFirst()).count == days.count - 1, "the start, then each day once: \(days)")
        #expect(days.suffix(2) == [later(days: 1), later(days: 3)].map { String($0.iso8601.prefix(10)) }, "\(days)")
        let values = Self.balancePoints(acme).compactMap { Int($0.value) }
        #expect(values.count == days.count && zip(values.dropFirst(), values).suffix(2).map { $0 - $1 } == [20_000, 7_500], "\(values)")
        // A self-paying project that used more than it was given: a negative balance, drawn below zero's line.
        let solo = try browser.send("GET", "/usage?account=project:solo").text
        #expect(Self.balancePoints(solo).last.flatMap { Int($0.value) }.map { $0 < 0 } == true, "\(Self.balancePoints(solo))")
        #expect(Self.figure(solo, "balance-chart")?.contains("stroke=\"#555\"") == true, "zero's line")
        // The meters' tables carry the API's fields, which the figures test compares with the API.
        #expect(acme.contains(#"<td data-month="2026-09" data-field="units.api_requests" data-value="12000">12,000 requests</td>"#))
        #expect(acme.contains(#"<td data-month="2026-09" data-field="storage.peak_bytes" data-value="943718400">900 MiB</td>"#))
    }

    @Test("an organization's plans over time: a lane per source and the plan in force, each change linked to its event")
    func organizationTimeline() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("olga", role: "viewer")
        let f = h.f
        _ = try f.adminJSON(["org", "create", "--id", "school", "--name", "A School"])
        let premium = try f.adminJSON(["org", "plan", "--org", "school", "--source", "staff", "--plan", "premium"])
        let premiumPosition = try #require(premium["events"]?.arrayValue?.first?["position"]?.int64Value)
        _ = try f.adminJSON(["org", "plan", "--org", "school", "--source", "billing", "--plan", "plus"])
        try f.settle()
        // The page judges the plans at the console's clock: an hour after the decisions (the log's time).
        h.clock.set(Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1e6) + 3_600_000_000)!.iso8601)
        let browser = h.browser()
        #expect(try browser.signIn("olga", password).status == 303)
        let page = try browser.send("GET", "/orgs/school")
        #expect(page.status == 200)
        let figure = try #require(Self.figure(page.text, "plan-timeline"), "\(page.text)")
        #expect(figure.contains("<figcaption") && figure.contains("<svg role=\"img\" aria-labelledby=\"plan-timeline-title plan-timeline-desc\""))
        for lane in ["Staff", "Billing", "App Store", "In force"] {
            #expect(figure.contains("font-weight=\"bold\">\(lane)</text>"), "lane \(lane)")
        }
        // The change is marked and linked to its event, in the picture and in the table.
        #expect(figure.components(separatedBy: "<a href=\"/events/\(premiumPosition)\">").count >= 3, "staff's band and the plan in force")
        #expect(figure.contains("<td><a href=\"/events/\(premiumPosition)\">position \(premiumPosition)</a></td>"))
        #expect(figure.contains(">premium (staff)</text>") && figure.contains("free (default)"))
        #expect(figure.contains(">now</text>"))
    }
}
