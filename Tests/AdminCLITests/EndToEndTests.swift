import Foundation
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

@Suite("ledger admin, end to end", .bounded)
struct EndToEndTests {
    @Test("the executable: exit 0 with one JSON object, 1 on a refusal, 2 on a usage error; audit reads back")
    func executable() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        // The operator is the database login, whatever USER says.
        let env = ["DATABASE_URL": try f.db.operatorURL("ops_bot"), "LEDGER_OPERATOR": "", "USER": "someone-else"]
        let created = try LedgerExecutable.run(["admin", "payer", "create", "--id", "acme", "--name", "Acme",
                                                "--reason", "e2e", "--json"], environment: env)
        #expect(created.status == 0, "\(created.errors)")
        let json = try JSONValue.parse(created.output)
        #expect(json["operator"] == "ops_bot")
        #expect(json.appended.map { $0["type"] } == ["payer.created"])
        #expect(created.output.filter { $0 == "\n" }.count == 1)

        let again = try LedgerExecutable.run(["admin", "payer", "create", "--id", "acme", "--name", "Acme",
                                              "--reason", "e2e", "--json"], environment: env)
        #expect(again.status == 1)
        #expect(try JSONValue.parse(again.output) == ["error": "already_exists", "message": "payer acme already exists"])
        #expect(again.errors.contains("ledger admin payer create: refused (already_exists): payer acme already exists"))

        let credit = try LedgerExecutable.run(["admin", "credit", "--pool", "payer:acme", "--source", "grant",
                                               "--amount", "1.5", "--description", "d", "--reason", "e2e"], environment: env)
        #expect(credit.status == 2)
        #expect(credit.errors.contains("is not an amount of millicredits"))
        #expect(credit.errors.contains("usage: ledger admin credit --pool"))

        let granted = try LedgerExecutable.run(["admin", "credit", "--pool", "payer:acme", "--source", "grant",
                                                "--amount", "700", "--description", "d", "--reason", "e2e"], environment: env)
        #expect(granted.status == 0, "\(granted.errors)")
        let entry = "je_\(try f.head())_0"
        let corrected = try LedgerExecutable.run(["admin", "correct", "--entry", entry, "--amount", "-200",
                                                  "--reason", "typo in the grant", "--operator", "erin"],
                                                 environment: env.merging(["DATABASE_URL": try f.db.operatorURL("erin")]) { $1 })
        #expect(corrected.status == 0, "\(corrected.errors)")
        #expect(corrected.output.contains("appended entry.corrected to payer-acme"))

        let audit = try LedgerExecutable.run(["audit", "corrections", "--payer", "acme", "--json"], environment: env)
        #expect(audit.status == 0, "\(audit.errors)")
        let rows = try JSONValue.parse(audit.output)["corrections"]?.arrayValue ?? []
        #expect(rows.map { $0["actor"] } == ["operator:erin"])
        #expect(rows.map { $0["reason"] } == ["typo in the grant"])

        let help = try LedgerExecutable.run(["--help"], environment: [:])
        #expect(help.output.contains("  admin "))
        #expect(help.output.contains("  audit "))
        let missing = try LedgerExecutable.run(["admin"], environment: env)
        #expect(missing.status == 2)
    }
}
