import EventStore
import Foundation
import LedgerJSON
import Postgres
import Testing
import TestSupport

@Suite("The hash chain", .bounded)
struct VerifyTests {
    /// The SQL an auditor runs, read from docs/audit.md as an auditor copies it (the
    /// first `sql` block of "Checking the chain with plain SQL"): it must agree with the
    /// service's verifier. Not the Swift constant beside it, which could drift from the page.
    static let auditQuery: String = {
        let page = (try? String(contentsOfFile: TestDatabase.repositoryRoot + "/docs/audit.md", encoding: .utf8)) ?? ""
        guard let section = page.range(of: "## Checking the chain with plain SQL"),
              let open = page.range(of: "```sql\n", range: section.upperBound..<page.endIndex),
              let close = page.range(of: "```", range: open.upperBound..<page.endIndex) else {
            return "SELECT 'docs/audit.md has no chain query under Checking the chain with plain SQL'::text AS missing"
        }
        return String(page[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    @Test("the auditor's query is docs/audit.md's, and the one ChainVerifier publishes")
    func auditQueryIsTheDocs() {
        #expect(Self.auditQuery.hasPrefix("SELECT position FROM ("), "\(Self.auditQuery.prefix(120))")
        let squeeze = { (s: String) in s.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: ";", with: "") }
        #expect(squeeze(Self.auditQuery) == squeeze(ChainVerifier.auditorSQL))
    }

    @Test("a fresh log verifies, in Swift and with the auditor's SQL, for generated payloads")
    func freshLogVerifies() throws {
        try withStore { store, db in
            var random = SeededRandom(seed: 42)
            for i in 0..<300 {
                var e = event("stream-\(i % 13)", "type.\(i % 5)", data: Self.payload(&random))
                e.metadata.requestID = "req-\(i)"
                e.metadata.reason = Self.text(&random)
                _ = try store.append(AppendRequest(e))
            }
            let connection = try db.connect()
            let report = try ChainVerifier(chunkSize: 37).verify(on: connection)
            #expect(report.isValid, "\(String(describing: report.failure))")
            #expect(report.verified == 300)
            #expect(try connection.query(Self.auditQuery).rowCount == 0)
        }
    }

    @Test("the auditor's SQL finds the same altered position as verify")
    func auditQueryFindsTampering() throws {
        try withStore { store, db in
            for i in 0..<20 { _ = try store.append(AppendRequest(event("org-\(i % 3)"))) }
            let connection = try db.connect()
            try connection.query("SET session_replication_role = replica")
            try connection.query("UPDATE events SET metadata = '{\"actor\": {\"id\": \"mallory\", \"kind\": \"operator\"}}' WHERE position = 11")
            #expect(try connection.query(Self.auditQuery)[0].int64(0) == 11)
            #expect(try ChainVerifier().verify(on: connection).failure?.position == 11)
        }
    }

    @Test("an empty log verifies")
    func emptyLog() throws {
        try withStore { _, db in
            let report = try ChainVerifier().verify(on: try db.connect())
            #expect(report.isValid && report.verified == 0)
        }
    }

    static func text(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", "é", "ß", "日本", "🙂", "\"", "\\", "\n", "\t", "\u{1}", "\u{7f}", " ", "/", "\u{2028}", "e\u{301}"]
        return (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func payload(_ random: inout SeededRandom, depth: Int = 0) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let key = text(&random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: members[key] = .integer(Int64.random(in: Int64.min...Int64.max, using: &random))
            case 1: members[key] = .string(text(&random))
            case 2: members[key] = .bool(Bool.random(using: &random))
            case 3: members[key] = .null
            case 4: members[key] = .array((0..<3).map { _ in .string(text(&random)) })
            case 5 where depth < 3: members[key] = payload(&random, depth: depth + 1)
            default: members[key] = .decimal(["1.50", "0.001", "-12.0", "100000000000000000000"].randomElement(using: &random)!)
            }
        }
        return .object(members)
    }
}
