import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Testing
import TestSupport

@Suite("ledger admin correct and ledger audit corrections", .bounded)
struct CorrectionTests {
    @Test("correct posts a new entry naming the original, with corrects_position on the event (J3)")
    func correct() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let credit = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "purchase", "--amount", "5000", "--description", "order 17"])
        let original = try #require(credit.appended.first?["position"]?.int64Value)
        let start = try f.head()
        let json = try f.adminJSON(["correct", "--entry", "je_\(original)_0", "--amount", "-500"], reason: "order 17 was 4500")
        let events = try f.events(after: start)
        #expect(events.map(\.type) == ["entry.corrected"])
        #expect(events.map(\.stream) == ["payer-acme"])
        #expect(events.map(\.correctsPosition) == [original])
        #expect(events[0].json == ["entry_id": .string("je_\(original)_0"), "amount": "-500", "reason": "order 17 was 4500"])
        #expect(json.appended.first?["corrects_position"] == .integer(original))
        #expect(json["corrects"]?["kind"] == "credit")

        let correction = events[0].position
        #expect(try f.rows("SELECT entry_id, kind, amount::text, corrects FROM proj_billing.journal ORDER BY position")
                == [["je_\(original)_0", "credit", "5000", nil], ["je_\(correction)_0", "correction", "-500", "je_\(original)_0"]])
        #expect(try f.rows("SELECT credit_purchase::text, correction::text FROM proj_billing.balances WHERE account = 'payer:acme'")
                == [["5000", "-500"]])
    }

    @Test("J3: corrections of an entry together never reverse more than it (correction_exceeds_entry, nothing appended); more credit is a grant")
    func correctionsBounded() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let credit = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "purchase", "--amount", "1000", "--description", "order 18"])
        let entry = "je_\(try #require(credit.appended.first?["position"]?.int64Value))_0"
        let head = try f.head()
        let over = f.admin(["correct", "--entry", entry, "--amount", "-5000"])
        #expect(over.status == 1 && over.errors.contains("correction_exceeds_entry"), "\(over.errors)")
        #expect(try f.head() == head, "a refusal appends nothing")
        #expect(f.admin(["correct", "--entry", entry, "--amount", "-600"]).status == 0)
        let rest = f.admin(["correct", "--entry", entry, "--amount", "-401"])
        #expect(rest.status == 1 && rest.errors.contains("its corrections so far -600"), "\(rest.errors)")
        #expect(f.admin(["correct", "--entry", entry, "--amount", "-400"]).status == 0, "the rest of it, exactly")
        let more = f.admin(["correct", "--entry", entry, "--amount", "1001"])
        #expect(more.status == 1 && more.errors.contains("more credit is a grant"))
    }

    @Test("correct refuses an unknown entry (status 1), a malformed id, a zero or non-canonical amount (status 2)")
    func correctRefusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let head = try f.head()
        let unknown = f.admin(["correct", "--entry", "je_999_0", "--amount", "5"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("journal entry je_999_0 does not exist"))
        #expect(f.admin(["correct", "--entry", "je_1", "--amount", "5"]).status == 2)
        #expect(f.admin(["correct", "--entry", "je_01_0", "--amount", "5"]).status == 2)
        #expect(f.admin(["correct", "--entry", "je_1_0", "--amount", "0"]).status == 2)
        #expect(f.admin(["correct", "--entry", "je_1_0", "--amount", "+3"]).status == 2)
        #expect(f.admin(["correct", "--entry", "je_1_0", "--amount", "5"], reason: nil).status == 2)
        #expect(try f.head() == head)
    }

    /// A hold of 900 captured, then corrected twice by two operators; the entry's id and
    /// the corrections' ids.
    static func correctedCapture(_ f: AdminFixture, project: String, hold: String = "h1") throws -> (entry: String, corrections: [String]) {
        _ = try f.adminJSON(["hold", "place", "--id", hold, "--project", project, "--amount", "900", "--description", "job"])
        let capture = try f.adminJSON(["hold", "capture", "--id", hold])
        let entry = "je_\(try #require(capture.appended.first?["position"]?.int64Value))_0"
        let first = try f.adminJSON(["correct", "--entry", entry, "--amount", "300"], reason: "job failed at 2/3", as: "bob")
        let second = try f.adminJSON(["correct", "--entry", entry, "--amount", "-100"], reason: "bob over-refunded", as: "carol")
        let ids = [first, second].compactMap { $0.appended.first?["position"]?.int64Value }.map { "je_\($0)_0" }
        try #require(ids.count == 2)
        return (entry, ids)
    }

    @Test("audit corrections lists who corrected what, when and why")
    func audit() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let (entry, ids) = try Self.correctedCapture(f, project: "solo")

        let outcome = f.audit(["corrections", "--project", "solo", "--json"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let json = try JSONValue.parse(outcome.output)
        #expect(json["command"] == "corrections")
        #expect(json["account"] == "project:solo")
        let rows = try #require(json["corrections"]?.arrayValue)
        #expect(rows.map { $0["correction_id"] } == ids.map { .string($0) })
        #expect(rows.map { $0["corrects"] } == [.string(entry), .string(entry)])
        #expect(rows.map { $0["amount"] } == ["300", "-100"])
        #expect(rows.map { $0["actor"] } == ["operator:bob", "operator:carol"])
        #expect(rows.map { $0["reason"] } == ["job failed at 2/3", "bob over-refunded"])
        let recorded = try f.events().filter { $0.type == "entry.corrected" }.map { $0.recordedAt.iso8601 }
        #expect(rows.map { $0["at"] } == recorded.map { .string($0) })

        let text = f.audit(["corrections", "--project", "solo"])
        #expect(text.status == 0)
        #expect(text.output.contains("corrections of project:solo: 2"))
        #expect(text.output.contains("\(ids[0]) corrects \(entry) by 300 on project:solo: operator:bob at \(recorded[0])"))
        #expect(text.output.contains("  why: bob over-refunded"))

        let unknown = f.audit(["corrections", "--project", "ghost"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("project ghost does not exist"))
        #expect(f.audit(["corrections", "--project", "solo", "--payer", "acme"]).status == 2)
        #expect(f.audit(["adjustments", "--project", "solo"]).status == 2)
    }

    @Test("a correction of a funded project's entry is listed for the project and for its payer")
    func auditFunded() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let (_, ids) = try Self.correctedCapture(f, project: "web")
        let payer = try JSONValue.parse(f.audit(["corrections", "--payer", "acme", "--json"]).output)
        #expect(payer["corrections"]?.arrayValue?.map { $0["correction_id"] } == ids.map { .string($0) })
        let project = try JSONValue.parse(f.audit(["corrections", "--project", "web", "--json"]).output)
        #expect(project["corrections"]?.arrayValue?.map { $0["correction_id"] } == ids.map { .string($0) })
    }

    @Test("an account without corrections lists none")
    func auditEmpty() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let json = try JSONValue.parse(f.audit(["corrections", "--project", "solo", "--json"]).output)
        #expect(json["corrections"] == [])
    }

    @Test("J3: audit corrections across every account, by operator and by time, and as CSV")
    func auditAcrossAccounts() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let (_, solo) = try Self.correctedCapture(f, project: "solo")
        let (_, web) = try Self.correctedCapture(f, project: "web", hold: "h2")

        func rows(_ arguments: [String]) throws -> [JSONValue] {
            let outcome = f.audit(["corrections", "--json"] + arguments)
            try #require(outcome.status == 0, "\(outcome.errors)")
            return try #require(try JSONValue.parse(outcome.output)["corrections"]?.arrayValue)
        }
        // Every account, oldest first; web's corrections are listed for web and for acme.
        let all = try rows([])
        #expect(all.map { $0["correction_id"] } == (solo + web.flatMap { [$0, $0] }).map { .string($0) })
        #expect(all.map { $0["account"] } == ["project:solo", "project:solo", "payer:acme", "project:web", "payer:acme", "project:web"])
        #expect(try rows(["--actor", "carol"]).map { $0["correction_id"] } == [solo[1], web[1], web[1]].map { .string($0) })
        #expect(try rows(["--actor", "operator:bob", "--payer", "acme"]).map { $0["correction_id"] } == [.string(web[0])])

        let times = all.compactMap { $0["at"]?.stringValue }
        #expect(try rows(["--since", times[2]]).count == 4)
        #expect(try rows(["--until", times[2]]).count == 2)
        #expect(try rows(["--since", "2000-01-01", "--until", "2000-01-02"]).isEmpty)
        #expect(f.audit(["corrections", "--since", "2026-12-02", "--until", "2026-12-01"]).status == 2)
        #expect(f.audit(["corrections", "--since", "yesterday"]).status == 2)

        let csv = f.audit(["corrections", "--csv", "--project", "solo"])
        #expect(csv.status == 0)
        let lines = csv.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "position,account,correction_id,corrects,amount,actor,at,reason")
        #expect(lines.count == 3)
        #expect(lines.last?.hasSuffix(",operator:carol,\(times[1]),bob over-refunded") == true)
    }
}
