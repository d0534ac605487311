import EventStore
import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

@Suite("ledger admin payer and project", .bounded)
struct PayerAndProjectTests {
    @Test("payer create appends payer.created and plan.set in one append, with the operator and the reason")
    func payerCreate() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let json = try f.adminJSON(["payer", "create", "--id", "acme", "--name", "Acme Ltd", "--plan", "team",
                                    "--allowance-storage-bytes", "1073741824"], reason: "signed contract 42")
        #expect(json["command"] == "payer create")
        #expect(json["operator"] == "alice")
        #expect(json["reason"] == "signed contract 42")
        let events = try f.events()
        #expect(events.map(\.type) == ["payer.created", "plan.set"])
        #expect(events.map(\.stream) == ["payer-acme", "payer-acme"])
        #expect(events.map(\.streamVersion) == [1, 2])
        #expect(events[0].json == ["payer_id": "acme", "name": "Acme Ltd"])
        #expect(events[1].json == ["pool": "payer:acme", "plan": "team", "allowance_storage_bytes": 1_073_741_824])
        #expect(events.allSatisfy { $0.actor == "operator:alice" && $0.reason == "signed contract 42" })
        // One append: the events of one invocation share the request id it printed.
        #expect(Set(events.compactMap { (try? $0.metadata())??.requestID }) == [json["request_id"]?.stringValue])
        // What it printed is what the log holds.
        #expect(json.appended.map { $0["position"] } == events.map { .integer($0.position) })
        #expect(json.appended.map { $0["event_id"] } == events.map { .string($0.eventID.uuidString.lowercased()) })
        #expect(json.appended.map { $0["data"] } == events.map(\.json))

        #expect(try f.rows("SELECT name FROM proj_billing.payers WHERE payer_id = 'acme'") == [["Acme Ltd"]])
        #expect(try f.rows("SELECT plan, allowance_storage_bytes::text FROM proj_billing.pools WHERE pool = 'payer:acme'")
                == [["team", "1073741824"]])
    }

    @Test("payer create prints the events it appended as text")
    func payerCreateText() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let outcome = f.admin(["payer", "create", "--id", "acme", "--name", "Acme"])
        #expect(outcome.status == 0)
        let event = try #require(try f.events().first)
        #expect(outcome.output.contains("appended payer.created to payer-acme: position \(event.position), stream version 1, event \(event.eventID.uuidString.lowercased())"))
        #expect(outcome.output.contains(#"data {"name":"Acme","payer_id":"acme"}"#))
    }

    @Test("a payer that exists already is refused with status 1 and nothing is appended")
    func payerDuplicate() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let head = try f.head()
        let outcome = f.admin(["payer", "create", "--id", "acme", "--name", "Again", "--json"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("payer acme already exists"))
        #expect(try JSONValue.parse(outcome.output)["error"] == "already_exists")
        #expect(try f.head() == head)
    }

    @Test("usage errors exit 2 before any database work", arguments: [
        (["payer", "create", "--id", "acme"], "--name is required"),
        (["payer", "create", "--id", "Acme", "--name", "A"], "not a valid payer id"),
        (["payer", "create", "--id", "acme", "--name", "A", "--plan", "team"], "--allowance-storage-bytes is required"),
        (["payer", "create", "--id", "acme", "--name", "A", "--plan", "team", "--allowance-storage-bytes", "01"], "non-negative integer"),
        (["payer", "create", "--id", "acme", "--name", "A", "--colour", "red"], "unknown option --colour"),
        (["payer", "create", "--id", "acme", "--id", "beta", "--name", "A"], "--id is given more than once"),
        (["payer", "delete", "--id", "acme"], "unknown command \"payer delete\""),
        // A typo names the command meant, in one line.
        (["payer", "craete", "--id", "acme"], "did you mean `ledger admin payer create`?"),
        (["projetc", "fund", "--id", "p"], "did you mean `ledger admin project fund`?"),
        (["project", "create", "--id", "p", "--name", "P"], "one of --self-paying, --payer is required"),
        (["project", "create", "--id", "p", "--name", "P", "--self-paying", "--payer", "acme"], "give only one of"),
        (["project", "fund", "--id", "p", "--self-paying", "--effective-at", "tomorrow"], "not an RFC 3339 instant"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        var connected = false
        let outcome = AdminCommand.execute(arguments + ["--reason", "r"], environment: AdminFixture.operatorEnvironment) {
            connected = true
            throw UsageError("the database must not be needed")
        }
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains(message), "\(outcome.errors)")
        #expect(outcome.errors.contains("usage:"))
        #expect(!connected)
    }

    @Test("every operator act needs a reason, and is recorded under the database login that made it, never a typed name")
    func operatorAndReason() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let noReason = f.admin(["payer", "create", "--id", "a", "--name", "A"], reason: nil)
        #expect(noReason.status == 2)
        #expect(noReason.errors.contains("--reason is required"))
        let blank = f.admin(["payer", "create", "--id", "a", "--name", "A"], reason: "  ")
        #expect(blank.status == 2)

        // A typed name that is not the login is refused, whatever USER says.
        let typed = f.admin(["payer", "create", "--id", "a", "--name", "A", "--operator", "mallory"], as: "bob")
        #expect(typed.status == 1)
        #expect(typed.errors.contains("refused (operator_not_login)") && typed.errors.contains("\"bob\""))
        let exported = f.admin(["payer", "create", "--id", "a", "--name", "A"], environment: ["LEDGER_OPERATOR": "mallory"], as: "bob")
        #expect(exported.status == 1)
        #expect(try f.head() == 0)

        #expect(f.admin(["payer", "create", "--id", "a", "--name", "A"], environment: ["USER": "mallory"], as: "bob").status == 0)
        #expect(f.admin(["payer", "create", "--id", "b", "--name", "B"], environment: ["LEDGER_OPERATOR": "carol"], as: "carol").status == 0)
        #expect(f.admin(["payer", "create", "--id", "c", "--name", "C", "--operator", "dave"], as: "dave").status == 0)
        #expect(try f.events().map(\.actor) == ["operator:bob", "operator:carol", "operator:dave"])
    }

    @Test("project create: self-paying owns its pool; funded shares the payer's")
    func projectCreate() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let start = try f.head()
        let solo = try f.adminJSON(["project", "create", "--id", "solo", "--name", "Solo", "--self-paying"])
        let funded = try f.adminJSON(["project", "create", "--id", "web", "--name", "Web", "--payer", "acme"])
        #expect(solo.appended.map { $0["data"] } == [["project_id": "solo", "name": "Solo", "funding": ["kind": "self"]]])
        #expect(funded.appended.map { $0["data"] } == [["project_id": "web", "name": "Web", "funding": ["kind": "payer", "payer_id": "acme"]]])
        #expect(try f.events(after: start).map(\.stream) == ["project-solo", "project-web"])
        #expect(try f.rows("SELECT project_id, pool FROM proj_billing.funding ORDER BY project_id")
                == [["solo", "project:solo"], ["web", "payer:acme"]])
    }

    @Test("project create refuses an unknown payer and an existing project")
    func projectCreateRefusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let unknown = f.admin(["project", "create", "--id", "web", "--name", "Web", "--payer", "ghost"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("payer ghost does not exist"))
        try f.project("web")
        let head = try f.head()
        let again = f.admin(["project", "create", "--id", "web", "--name", "Web 2", "--self-paying"])
        #expect(again.status == 1)
        #expect(again.errors.contains("project web already exists"))
        #expect(try f.head() == head)
    }

    @Test("project fund: effective now by default or later, never in the past")
    func projectFund() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web")
        f.clock.set("2026-11-20T08:30:00Z")
        let now = try f.adminJSON(["project", "fund", "--id", "web", "--payer", "acme"])
        #expect(now.appended.first?["data"] == ["project_id": "web", "funding": ["kind": "payer", "payer_id": "acme"],
                                                "effective_at": "2026-11-20T08:30:00.000000Z"])
        let later = try f.adminJSON(["project", "fund", "--id", "web", "--self-paying", "--effective-at", "2026-12-01T00:00:00Z"])
        #expect(later.appended.first?["data"]?["effective_at"] == "2026-12-01T00:00:00.000000Z")
        #expect(try f.rows("SELECT effective_us::text, pool FROM proj_billing.funding WHERE project_id = 'web' ORDER BY position").dropFirst()
                == [[String(t("2026-11-20T08:30:00Z").microseconds), "payer:acme"],
                    [String(t("2026-12-01T00:00:00Z").microseconds), "project:web"]])

        let head = try f.head()
        let past = f.admin(["project", "fund", "--id", "web", "--payer", "acme", "--effective-at", "2026-11-20T08:29:59Z"])
        #expect(past.status == 1)
        #expect(past.errors.contains("effective_at_in_past"))
        #expect(past.errors.contains("may not take effect in the past"))
        let unknownProject = f.admin(["project", "fund", "--id", "ghost", "--self-paying"])
        #expect(unknownProject.status == 1)
        #expect(unknownProject.errors.contains("project ghost does not exist"))
        let unknownPayer = f.admin(["project", "fund", "--id", "web", "--payer", "ghost"])
        #expect(unknownPayer.status == 1)
        #expect(unknownPayer.errors.contains("payer ghost does not exist"))
        #expect(try f.head() == head)
    }

    @Test("plan set changes a known pool's plan; an unknown pool is refused")
    func planSet() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let json = try f.adminJSON(["plan", "set", "--pool", "project:solo", "--plan", "pro", "--allowance-storage-bytes", "5000"])
        #expect(json.appended.map { $0["stream"] } == ["project-solo"])
        #expect(json.appended.map { $0["type"] } == ["plan.set"])
        #expect(try f.rows("SELECT plan, allowance_storage_bytes::text FROM proj_billing.pools WHERE pool = 'project:solo'") == [["pro", "5000"]])

        let unknown = f.admin(["plan", "set", "--pool", "payer:ghost", "--plan", "pro", "--allowance-storage-bytes", "1"])
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("payer ghost does not exist"))
        #expect(f.admin(["plan", "set", "--pool", "ghost", "--plan", "pro", "--allowance-storage-bytes", "1"]).status == 2)
        #expect(f.admin(["plan", "set", "--pool", "project:solo", "--plan", "pro", "--allowance-storage-bytes", "-1"]).status == 2)
    }
}
