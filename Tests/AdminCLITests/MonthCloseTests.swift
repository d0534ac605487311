import Dispatch
import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Synchronization
import Testing
import TestSupport

@Suite("ledger admin month close", .bounded)
struct MonthCloseTests {
    /// A payer with two projects, a unit price of 3, and October usage: 12,000 units in
    /// all (10,000 free, taken in log order), so web pays 2,000 × 3 and api nothing.
    static func october(_ f: AdminFixture) throws {
        try f.payer("acme")
        try f.project("api", payer: "acme")
        try f.project("web", payer: "acme")
        _ = try f.adminJSON(["price", "set", "--unit-price", "3", "--storage-price-per-gib-month", "0"])
        try f.usage("api", .apiRequests, 7_000, at: "2026-10-03T10:00:00Z")
        try f.usage("web", .apiRequests, 5_000, at: "2026-10-09T10:00:00Z")
        try f.usage("web", .bytesServed, 1_000_000, at: "2026-10-10T10:00:00Z")
    }

    @Test("the two-phase close: month_closing, then month_closed with the charges, which post to the journal")
    func fullClose() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try Self.october(f)
        let start = try f.head()
        let json = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-10"], reason: "October invoice run")
        let events = try f.events(after: start)
        #expect(events.map(\.type) == ["usage.month_closing", "usage.month_closed"])
        #expect(events.map(\.stream) == ["month-payer:acme-2026-10", "month-payer:acme-2026-10"], "the month's own stream, which usage of the month expects empty")
        #expect(events.map(\.idempotencyKey) == ["month-closing:payer:acme:2026-10", "month-close:payer:acme:2026-10"])
        #expect(events.allSatisfy { (try? $0.metadata())??.correlationID == "month-close:payer:acme:2026-10" })
        #expect(events[0].json == ["pool": "payer:acme", "month": "2026-10"])
        let charges = try #require(events[1].json["charges"]?.arrayValue)
        #expect(charges.map { $0["project_id"] } == ["api", "web"])
        #expect(charges.map { $0["free_units"] } == [7_000, 3_000])
        #expect(charges.map { $0["billed_units"] } == [0, 2_000])
        #expect(charges.map { $0["amount"] } == ["0", "6000"])

        #expect(json["resumed"] == false)
        #expect(json["total"] == "6000")
        #expect(json["charges"]?.arrayValue == charges)
        #expect(json.appended.map { $0["type"] } == ["usage.month_closing", "usage.month_closed"])

        let closed = events[1].position
        #expect(try f.rows("SELECT status, closing_position::text, closed_position::text FROM proj_billing.pool_months WHERE pool = 'payer:acme'")
                == [["closed", String(events[0].position), String(closed)]])
        // Only a project that owes gets an entry, mirrored in the payer's journal.
        #expect(try f.rows("SELECT account, entry_id, kind, amount::text, month FROM proj_billing.journal WHERE kind = 'usage_charge' ORDER BY account")
                == [["payer:acme", "je_\(closed)_0", "usage_charge", "-6000", "2026-10"],
                    ["project:web", "je_\(closed)_0", "usage_charge", "-6000", "2026-10"]])

        let text = f.admin(["month", "close", "--pool", "payer:acme", "--month", "2026-10"])
        #expect(text.status == 1)
        #expect(text.errors.contains("2026-10 is already closed for payer:acme"))
        #expect(try f.head() == closed)
    }

    @Test("a close that died between its two events resumes; usage recorded after month_closing is late, never billed")
    func resumeAfterCrash() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try Self.october(f)
        // What a close that crashed after its first append leaves behind.
        let closing = try f.append(MonthClosing(pool: .payer("acme"), month: UTCMonth("2026-10")!), stream: "payer-acme",
                                   key: "month-closing:payer:acme:2026-10").position
        try f.usage("web", .apiRequests, 9_999, at: "2026-10-31T23:59:59Z")
        let outcome = f.admin(["month", "close", "--pool", "payer:acme", "--month", "2026-10"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("2026-10 is already closing for payer:acme: resuming the interrupted close"))
        #expect(outcome.output.contains("project web: 6000"))
        #expect(outcome.output.contains("total 6000"))

        let types = try f.events(after: closing).map(\.type)
        #expect(types == ["usage.recorded", "usage.month_closed"])
        let closed = try #require(try f.events(after: closing).last)
        #expect(closed.json["charges"]?.arrayValue?.map { $0["amount"] } == ["0", "6000"])
        #expect(try f.rows("SELECT project_id, quantity::text FROM proj_billing.late_usage") == [["web", "9999"]])
        // Listed for operators and auditors, never billed.
        let audit = f.audit(["late-usage", "--pool", "payer:acme", "--json"])
        #expect(audit.status == 0, "\(audit.errors)")
        let listed = try JSONValue.parse(audit.output)["late_usage"]?.arrayValue ?? []
        #expect(listed.map { $0["project_id"] } == ["web"] && listed.map { $0["quantity"] } == [9_999] && listed.map { $0["month"] } == ["2026-10"])
        let admin = f.admin(["month", "late-usage", "--month", "2026-10"], reason: nil)
        #expect(admin.status == 0 && admin.output.contains("of project web, 9999 api_requests, 2026-10 of payer:acme (never billed)"), "\(admin.output)")
        #expect(f.audit(["late-usage", "--month", "2026-09"]).output.contains("late usage in 2026-09: 0"))
        #expect(try f.rows("SELECT count(*)::text FROM events WHERE type = 'usage.month_closing'") == [["1"]])
    }

    @Test("a month that has not ended is refused unless --force; an unknown pool is refused")
    func notEnded() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        f.clock.set("2026-11-30T23:59:59Z")
        let head = try f.head()
        let early = f.admin(["month", "close", "--pool", "payer:acme", "--month", "2026-11"])
        #expect(early.status == 1)
        #expect(early.errors.contains("month_not_ended"))
        #expect(early.errors.contains("2026-11 has not ended: it ends at 2026-12-01T00:00:00.000000Z"))
        let future = f.admin(["month", "close", "--pool", "payer:acme", "--month", "2027-01"])
        #expect(future.status == 1)
        #expect(try f.head() == head)
        let unknown = f.admin(["month", "close", "--pool", "payer:ghost", "--month", "2026-10"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("payer ghost does not exist"))
        #expect(f.admin(["month", "close", "--pool", "payer:acme", "--month", "2026-13"]).status == 2)

        f.clock.set("2026-12-01T00:00:00Z")
        let ended = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-11"])
        #expect(ended["charges"] == [])
        #expect(ended["total"] == "0")
        let forced = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-12", "--force"])
        #expect(forced.appended.count == 2)
        #expect(try f.rows("SELECT month, status FROM proj_billing.pool_months ORDER BY month")
                == [["2026-11", "closed"], ["2026-12", "closed"]])
    }

    @Test("two operators closing the same month at once write each event once")
    func concurrentCloses() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try Self.october(f)
        let outcomes = Mutex<[AdminOutcome]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let outcome = f.admin(["month", "close", "--pool", "payer:acme", "--month", "2026-10"])
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        // The second either finds the month closed or replays the first's appends.
        #expect(all.contains { $0.status == 0 })
        #expect(all.allSatisfy { $0.status == 0 || $0.errors.contains("already closed") || $0.errors.contains("by another operator") },
                "\(all.map(\.errors))")
        #expect(try f.rows("SELECT type, count(*)::text FROM events WHERE type LIKE 'usage.month_clos%' GROUP BY type ORDER BY type")
                == [["usage.month_closed", "1"], ["usage.month_closing", "1"]])
    }
}
