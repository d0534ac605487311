import Crypto
import Foundation
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Testing
import TestSupport

/// `ledger log` and `ledger export`, run as a newcomer runs them: the real binary against
/// the fixture's database.
@Suite("ledger log and ledger export", .bounded)
struct TimelineExportTests {
    static func run(_ f: AdminFixture, _ arguments: [String]) throws -> (status: Int32?, output: String, errors: String) {
        let process = try LedgerBinary.start(arguments, environment: ["DATABASE_URL": f.db.writerURL])
        let status = process.wait()
        return (status, process.output, process.errors)
    }

    static func jsonLines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    @Test("a subject's timeline: its own stream and those that belong to it, in order, filtered and paged")
    func timeline() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        _ = try f.adminJSON(["key", "issue", "--payer", "acme", "--key-id", "acme-1"])
        _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "700", "--description", "d"],
                            reason: "goodwill after the outage")
        try f.usage("web", .apiRequests, 5, at: "2026-11-15T10:00:00Z")
        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "web", "--amount", "10", "--description", "job"])
        try f.settle()

        let payer = try Self.run(f, ["log", "--payer", "acme", "--json"])
        #expect(payer.status == 0, "\(payer.errors)")
        let events = try Self.jsonLines(payer.output)
        #expect(events.map { $0["type"] } == ["payer.created", "plan.set", "key.issued", "credit.posted"])
        #expect(events.map { $0["stream"] } == ["payer-acme", "payer-acme", "key-acme-1", "payer-acme"])
        let positions = events.compactMap { $0["position"]?.int64Value }
        #expect(positions == positions.sorted())
        #expect(events.last?["metadata"]?["reason"] == "goodwill after the outage")
        #expect(events.last?["metadata"]?["actor"]?["id"] == "alice")

        let project = try Self.jsonLines(try Self.run(f, ["log", "--project", "web", "--json"]).output)
        #expect(project.map { $0["type"] } == ["project.created", "usage.recorded", "hold.placed"])

        let holds = try Self.run(f, ["log", "--project", "web", "--type", "hold.*"])
        #expect(holds.output.contains("hold.placed  hold-h1@1  by operator:alice"))
        #expect(!holds.output.contains("usage.recorded"))
        #expect(!holds.output.contains("more events follow"))

        // An unknown subject is an error, not an empty story.
        let unknown = try Self.run(f, ["log", "--payer", "nosuch"])
        #expect(unknown.status == 1 && unknown.errors.contains("there is no payer nosuch"), "\(unknown.errors)")
        let first = try Self.run(f, ["log", "--payer", "acme", "--limit", "2"])
        #expect(first.output.contains("more events follow: run the same command with --after \(positions[1])"))
        let rest = try Self.jsonLines(try Self.run(f, ["log", "--payer", "acme", "--after", String(positions[1]), "--json"]).output)
        #expect(rest.compactMap { $0["position"]?.int64Value } == Array(positions[2...]))

        #expect(try Self.run(f, ["log", "--payer", "acme", "--project", "web"]).status == 2)
        let nothing = try Self.run(f, ["log", "--stream", "nothing-here"])
        #expect(nothing.status == 1 && nothing.errors.contains("there is no stream nothing-here"))

        // A month's close is on the month's own stream, and in the payer's timeline.
        _ = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-11", "--force"])
        let closes = try Self.jsonLines(try Self.run(f, ["log", "--payer", "acme", "--type", "usage.*", "--json"]).output)
        #expect(closes.map { $0["type"] } == ["usage.month_closing", "usage.month_closed"])
        #expect(closes.map { $0["stream"] } == ["month-payer:acme-2026-11", "month-payer:acme-2026-11"])
    }

    @Test("the journal as CSV survives commas, quotes and line breaks, and as JSON lines matches the entries (J1)")
    func journalExport() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        // Operator texts hold no control characters (AdminOptions), so no line breaks here.
        let descriptions = ["plain", "with, a comma", "with \"quotes\"", "\"", "é, \"ü\", mixed"]
        for (i, d) in descriptions.enumerated() {
            _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "purchase", "--amount", String(100 + i), "--description", d])
        }
        try f.settle()
        let csv = try Self.run(f, ["export", "journal", "--payer", "acme"])
        #expect(csv.status == 0, "\(csv.errors)")
        let rows = CSVReader.parse(csv.output)
        #expect(rows.first == ["entry_id", "posted_at", "kind", "source", "amount", "project_id", "pool", "month", "hold_id",
                               "corrects", "corrected_by", "description"])
        #expect(rows.dropFirst().map { $0[11] } == descriptions)
        #expect(rows.dropFirst().map { $0[4] } == (0..<5).map { String(100 + $0) })
        #expect(csv.errors.contains("exported 5 journal entries of payer:acme"))

        let lines = try Self.jsonLines(try Self.run(f, ["export", "journal", "--payer", "acme", "--format", "jsonl"]).output)
        #expect(lines.map { $0["description"]?.stringValue } == descriptions)
        #expect(lines.map { $0["entry_id"] } == rows.dropFirst().map { .string($0[0]) })

        let month = String(try #require(rows.dropFirst().first?[1]).prefix(7))
        #expect(CSVReader.parse(try Self.run(f, ["export", "journal", "--payer", "acme", "--from", month, "--to", month]).output).count == 6)
        #expect(CSVReader.parse(try Self.run(f, ["export", "journal", "--payer", "acme", "--from", "2099-01"]).output).count == 1)
        let missing = try Self.run(f, ["export", "journal", "--payer", "ghost"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("payer ghost does not exist"))
        #expect(try Self.run(f, ["export", "journal", "--payer", "acme", "--from", "2026-12", "--to", "2026-11"]).status == 2)
    }

    @Test("an events segment re-verifies on its own with the chain's formula, and links to the event before it")
    func eventsExport() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1", "--description", "a \"b\", c"])
        try f.project("web", payer: "acme")
        try f.usage("web", .apiRequests, 1, at: "2026-11-15T10:00:00Z")
        let all = try f.events()
        let output = try Self.run(f, ["export", "events", "--after", "1", "--format", "jsonl"])
        #expect(output.status == 0, "\(output.errors)")
        let segment = try Self.jsonLines(output.output)
        #expect(segment.compactMap { $0["position"]?.int64Value } == all.dropFirst().map(\.position))
        var previous = all[0].hash
        for e in segment {
            let prev = try #require(Hex.decode(e["prev_hash"]?.stringValue ?? ""))
            #expect(prev == previous)
            func text(_ name: String) -> String {
                switch e[name] {
                case .string(let s)?: return s
                case .integer(let n)?: return String(n)
                default: return ""
                }
            }
            let canonical = (["ledger-event-v1"] + ["position", "event_id", "stream", "stream_version", "type", "occurred_at",
                                                    "recorded_at", "corrects_position", "idempotency_key", "data", "metadata"].map(text))
                .joined(separator: "\n")
            let hash = SHA256.hash(prev + Array(canonical.utf8))
            #expect(Hex.encode(hash) == e["hash"]?.stringValue)
            previous = hash
        }
        #expect(previous == all.last?.hash)
        let csv = CSVReader.parse(try Self.run(f, ["export", "events"]).output)
        #expect(csv.count == all.count + 1)
        #expect(csv.dropFirst().map { $0[12] } == all.map { Hex.encode($0.hash) })
    }

    @Test("verify --archive: exported segments check on their own, in order, and against the live log; a changed byte or a missing file in between is caught")
    func archivedSegments() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        for i in 0..<6 {
            _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", String(100 + i), "--description", "d\(i)"])
        }
        let head = try f.head()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-archive-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = directory + "/0001.jsonl", second = directory + "/0002.jsonl"
        for (path, range) in [(first, ["--through", "4"]), (second, ["--after", "4", "--through", String(head)])] {
            let exported = try Self.run(f, ["export", "events", "--format", "jsonl", "--output", path] + range)
            #expect(exported.status == 0, "\(exported.errors)")
        }
        let good = try Self.run(f, ["verify", "--archive", first, "--archive", second])
        #expect(good.status == 0, "\(good.output) \(good.errors)")
        #expect(good.output.contains("archive \(first): valid, events 1 to 4 (4)"))
        #expect(good.output.contains("archive \(second): valid, events 5 to \(head)") && good.output.contains("the same as the live log at 4 and \(head)"))
        // Out of order, or with a file missing between them: they do not link.
        #expect(try Self.run(f, ["verify", "--archive", second]).status == 0, "a later segment alone checks against the live log")
        let gap = try Self.run(f, ["verify", "--archive", second, "--archive", first])
        #expect(gap.status == 1 && gap.output.contains("does not continue"))
        // One byte of one event's data changed in the file.
        var lines = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "\\\"amount\\\": \\\"10", with: "\\\"amount\\\": \\\"90")
        try (lines.joined(separator: "\n") + "\n").write(toFile: second, atomically: true, encoding: .utf8)
        let tampered = try Self.run(f, ["verify", "--archive", first, "--archive", second])
        #expect(tampered.status == 1 && tampered.output.contains("INVALID archive \(second):2: position 6: its hash is not"), "\(tampered.output)")
    }

    @Test("usage month by month as the usage endpoint computes it (U1-U7)")
    func usageExport() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        try f.usage("solo", .apiRequests, 12_000, at: "2026-10-15T10:00:00Z")
        try f.usage("solo", .apiRequests, 300, at: "2026-11-02T10:00:00Z")
        try f.settle()
        let rows = CSVReader.parse(try Self.run(f, ["export", "usage", "--project", "solo", "--from", "2026-09", "--to", "2026-11"]).output)
        #expect(rows.map { $0[0] } == ["month", "2026-09", "2026-10", "2026-11"])
        #expect(rows.map { $0[4] } == ["api_requests", "0", "12000", "300"])
        #expect(rows.map { $0[9] } == ["units_billed", "0", "2000", "0"])
        let lines = try Self.jsonLines(try Self.run(f, ["export", "usage", "--project", "solo", "--from", "2026-10", "--format", "jsonl"]).output)
        #expect(lines.count == 1)
        #expect(lines.first?["units"]?["api_requests"] == "12000" || lines.first?["units"]?["api_requests"] == .integer(12_000))
        #expect(try Self.run(f, ["export", "usage", "--project", "solo"]).status == 2)
    }
}

/// RFC 4180, read back independently of the writer: quoted fields, doubled quotes, line
/// breaks inside quotes.
enum CSVReader {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { chars.removeFirst(); field.append("\"") } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
