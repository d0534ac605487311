import API
import Foundation
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Projections
import Testing
import TestSupport

/// B1, U5, U6, U7: the console's "Balance and usage" page shows
/// exactly what the API answers, for payers, funded projects and self-paying projects.
@Suite("The console's figures are the API's", .bounded)
struct ConsoleFiguresTests {
    typealias Browser = ConsoleTests.Browser

    /// Every figure of the page: `data-field` (a path in the API's answer, dot-separated,
    /// with `data-month` for a month's) to `data-value`.
    static func figures(_ page: String) -> [String: String] {
        var out: [String: String] = [:]
        var rest = Substring(page)
        while let range = rest.range(of: "data-field=\"") {
            let open = rest[..<range.lowerBound].lastIndex(of: "<") ?? range.lowerBound
            let tag = rest[open...].prefix { $0 != ">" }
            func attribute(_ name: String) -> String? {
                guard let start = tag.range(of: name + "=\"") else { return nil }
                return String(tag[start.upperBound...].prefix { $0 != "\"" })
            }
            if let field = attribute("data-field") {
                out[(attribute("data-month").map { $0 + ":" } ?? "") + field] = attribute("data-value") ?? ""
            }
            rest = rest[range.upperBound...]
        }
        return out
    }

    /// The API's value at a dot-separated path, as text ("" for null or absent).
    static func value(_ json: JSONValue, _ path: String) -> String {
        var node: JSONValue? = json
        for part in path.split(separator: ".") {
            if let index = Int(part) { node = node?[index] } else { node = node?[String(part)] }
        }
        switch node {
        case .string(let s)?, .decimal(let s)?: return s
        case .integer(let n)?: return String(n)
        default: return ""
        }
    }

    /// Compares every figure the page shows with the API's answers; returns how many.
    static func compare(_ account: BillingAccount, _ browser: Browser, _ f: AdminFixture, now: Timestamp) throws -> Int {
        let page = try browser.send("GET", "/usage?account=" + account.key)
        #expect(page.status == 200, "\(account.key): \(page.text.prefix(300))")
        let shown = figures(page.text)
        let queries = QueryRunner(connections: f.pool, clock: { now })
        let balance = try JSONValueEncoder().encode(try #require(try queries.answer(BalanceQuery(account), as: .operator("tests"))))
        var compared = 0
        for (key, value) in shown {
            if let colon = key.firstIndex(of: ":") {
                let month = try #require(UTCMonth(String(key[..<colon])))
                let usage = try JSONValueEncoder().encode(try #require(try queries.answer(UsageQuery(account, month: month), as: .operator("tests"))))
                #expect(value == Self.value(usage, String(key[key.index(after: colon)...])), "\(account.key) \(key): page \(value)")
            } else {
                #expect(value == Self.value(balance, key), "\(account.key) \(key): page \(value), API \(Self.value(balance, key))")
            }
            compared += 1
        }
        // The totals a billing person reads first are there.
        for field in ["posted", "held", "available"] { #expect(shown[field] != nil, "\(account.key) shows \(field)") }
        return compared
    }

    @Test("the demo's shape: a payer funding two projects (holds, usage, a closed month) and a self-paying project")
    func demoAccounts() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("vera", role: "viewer")
        let f = h.f
        try f.payer("acme")
        try f.project("acme-web", payer: "acme")
        try f.project("acme-mobile", payer: "acme")
        try f.project("solo")
        _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1500000", "--description", "opening"])
        _ = try f.adminJSON(["credit", "--pool", "project:solo", "--source", "purchase", "--amount", "20000", "--description", "top-up"])
        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "acme-web", "--amount", "2500", "--description", "render"])
        try f.usage("acme-web", .apiRequests, 7_200, at: "2026-11-10T00:00:00Z")
        try f.usage("acme-web", .apiRequests, 12_000, at: "2026-10-10T00:00:00Z")
        try f.usage("acme-mobile", .streamEvents, 4_000, at: "2026-10-11T00:00:00Z")
        try f.usage("solo", .apiRequests, 11_000, at: "2026-11-09T00:00:00Z")
        _ = try f.adminJSON(["price", "set", "--unit-price", "3", "--storage-price-per-gib-month", "0"])
        _ = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-10"])
        try f.settle()
        let browser = h.browser()
        #expect(try browser.signIn("vera", password).status == 303)
        let now = f.clock.read()
        for account in [BillingAccount.payer("acme"), .project("acme-web"), .project("acme-mobile"), .project("solo")] {
            #expect(try Self.compare(account, browser, f, now: now) >= 7, "the balance (seven figures) and the months the account existed in")
        }
        // What the page once showed: the funded project's hold and usage as zeros.
        let web = Self.figures(try browser.send("GET", "/usage?account=project:acme-web").text)
        #expect(web["consumption.hold.held"] == "2500" && web["available"] == "", "\(web)")
        #expect(web["2026-11:units.api_requests"] == "7200")
        // An account that does not exist is a 404, as on the API.
        #expect(try browser.send("GET", "/usage?account=project:nosuch").status == 404)
    }

    @Test("generated accounts, funded and self-paying, with credits, holds and usage: every figure the page shows is the API's",
          arguments: 0..<4)
    func generated(batch: Int) throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("walt", role: "viewer")
        let f = h.f
        var accounts: [BillingAccount] = []
        try Property.check("console figures \(batch)", count: 3) { rng, seed in
            let payer = "p\(batch)-\(accounts.count)"
            try f.payer(payer)
            accounts.append(.payer(payer))
            for i in 0..<rng.int(1...3) {
                let project = "\(payer)-x\(i)"
                let funded = rng.chance(0.6)
                try f.project(project, payer: funded ? payer : nil)
                accounts.append(.project(project))
                if !funded {
                    _ = try f.adminJSON(["credit", "--pool", "project:" + project, "--source", "purchase",
                                         "--amount", String(rng.int(1...900_000)), "--description", "seed \(seed.hex)"])
                }
                for _ in 0..<rng.int(0...3) {
                    try f.usage(project, rng.pick([.apiRequests, .streamEvents, .webhookDeliveries, .bytesServed, .storageBytes]),
                                Int64(rng.int(1...30_000)), at: rng.pick(["2026-09-03T00:00:00Z", "2026-10-20T00:00:00Z", "2026-11-02T00:00:00Z"]))
                }
                if rng.chance(0.5) {
                    _ = try f.adminJSON(["hold", "place", "--id", "h-\(project)", "--project", project, "--amount",
                                         String(rng.int(1...5_000)), "--description", "d"])
                }
            }
            _ = try f.adminJSON(["credit", "--pool", "payer:" + payer, "--source", rng.pick(["grant", "purchase", "plan"]),
                                 "--amount", String(rng.int(1...2_000_000)), "--description", "seed \(seed.hex)"])
        }
        _ = try f.adminJSON(["price", "set", "--unit-price", "2", "--storage-price-per-gib-month", "1000"])
        try f.settle()
        let browser = h.browser()
        #expect(try browser.signIn("walt", password).status == 303)
        for account in accounts { #expect(try Self.compare(account, browser, f, now: f.clock.read()) >= 7) }
    }
}
