@testable import API
import Foundation
import LedgerFixtures
import LedgerServices
import Postgres
import Testing
import TestSupport

/// Issue 50, finding 13, on the console: the projections page says what the projector's
/// last drift check found, naming each account whose live rows differ from the log's fold
/// and what differs, linked to its journal and balance.
@Suite("The operator console: drift on the projections page", .bounded)
struct ConsoleDriftTests {
    typealias Browser = ConsoleTests.Browser

    @Test("before any check, clean, then a balance changed by hand: the account, the figure and both values are shown")
    func projectionsPage() throws {
        let h = try ConsoleTests.Harness()
        let password = try h.addOperator("vera", role: "viewer")
        try h.f.payer("acme")
        _ = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"])
        try h.f.settle()
        let browser = h.browser()
        #expect(try browser.signIn("vera", password).status == 303)
        #expect(try browser.send("GET", "/projections").text.contains("No drift check has run yet"))

        let check = ProjectionDriftCheck(connections: PostgresPool(conninfo: h.f.db.projectorURL, maximumConnections: 2), now: h.clock.read)
        _ = try check.run()
        var page = try browser.send("GET", "/projections").text
        #expect(page.contains("folded 1 account again from the log") && page.contains("every one agrees with the live rows"), "\(page)")

        let superuser = try PostgresConnection(conninfo: h.f.db.superuserURL)
        let grant = try superuser.query("SELECT credit_grant::text FROM proj_billing.balances WHERE account = 'payer:acme'")[0].requireString(0)
        let tampered = String(Int(grant)! + 5)
        try superuser.query("UPDATE proj_billing.balances SET credit_grant = credit_grant + 5 WHERE account = 'payer:acme'")
        _ = try check.run()
        page = try browser.send("GET", "/projections").text
        #expect(page.contains("1 account differs from the log</strong>:\npayer:acme."), "\(page)")
        #expect(page.contains(#"<a href="/journal?account=payer%3Aacme">payer:acme</a>"#), "\(page)")
        #expect(page.contains("<td>posted</td><td>"), "\(page)")
        #expect(page.contains("<td>balance payer:acme credit_grant</td><td>\(tampered)</td><td>\(grant)</td>"), "\(page)")
        #expect(page.contains("ledger replay --projection billing"))
    }
}
