import Foundation
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

/// `ledger find` and `ledger list`: the console's search and lists on the command line,
/// read through the same queries (docs/console.md, "Search and lists").
@Suite("ledger find and ledger list", .bounded)
struct FindListCommandTests {
    static func run(_ f: AdminFixture, _ arguments: [String]) throws -> (status: Int32?, output: String, errors: String) {
        let process = try LedgerBinary.start(arguments, environment: ["DATABASE_URL": f.db.writerURL])
        let status = process.wait()
        return (status, process.output, process.errors)
    }

    @Test("find ranks its matches and exits 1 on none; list pages with a cursor and refuses another list's")
    func findAndList() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("acme-web", payer: "acme")
        try f.project("acme-mobile", payer: "acme")
        try f.settleAll()

        let found = try Self.run(f, ["find", "acme", "--json"])
        #expect(found.status == 0, "\(found.errors)")
        let hits = try #require(try JSONValue.parse(found.output)["hits"]?.arrayValue)
        #expect(hits.map { $0["id"]?.stringValue } == ["acme", "acme-mobile", "acme-web"])
        #expect(hits.map { $0["rank"]?.stringValue } == ["exact_id", "id_prefix", "id_prefix"])
        let text = try Self.run(f, ["find", "Payer", "ACME"])
        #expect(text.status == 0 && text.output.contains("payer acme") && text.output.contains("name_prefix"), "\(text.output)")
        #expect(try Self.run(f, ["find", "project:acme-"]).output.contains("project acme-web"))
        let none = try Self.run(f, ["find", "nothing-like-it"])
        #expect(none.status == 1 && none.output.contains("nothing matches"))
        #expect(try Self.run(f, ["find"]).status == 2)
        #expect(try Self.run(f, ["find", "acme", "--kind", "planet"]).status == 2)

        let first = try Self.run(f, ["list", "projects", "--limit", "1", "--json"])
        #expect(first.status == 0, "\(first.errors)")
        let page = try JSONValue.parse(first.output)
        #expect(page["items"]?.arrayValue?.map { $0["id"]?.stringValue } == ["acme-mobile"])
        let cursor = try #require(page["next_cursor"]?.stringValue)
        let second = try JSONValue.parse(try Self.run(f, ["list", "projects", "--limit", "1", "--cursor", cursor, "--json"]).output)
        #expect(second["items"]?.arrayValue?.map { $0["id"]?.stringValue } == ["acme-web"])
        #expect(second["next_cursor"] == .null)
        let latest = try Self.run(f, ["list", "projects", "--sort", "activity"])
        #expect(latest.output.split(separator: "\n").dropFirst().first?.hasPrefix("acme-mobile") == true, "\(latest.output)")
        let refused = try Self.run(f, ["list", "payers", "--cursor", cursor])
        #expect(refused.status == 2 && refused.errors.contains("cursor is not one of this list's"), "\(refused.errors)")
        #expect(try Self.run(f, ["list", "planets"]).status == 2)
        #expect(try Self.run(f, ["list", "payers", "--sort", "size"]).status == 2)
    }
}
