import LedgerDomain
import Testing
import TestSupport

/// `ledger archive`'s rules, against the decider alone.
@Suite("Archiving the log: the decider", .bounded)
struct LogArchiveDeciderTests {
    static func file(_ first: Int64, _ last: Int64, events: Int64? = nil) -> LogArchived.File {
        LogArchived.File(name: "events-\(first)-\(last).jsonl", partition: "events_\(first)", firstPosition: first, lastPosition: last,
                         events: events ?? last - first + 1, sha256: String(repeating: "a", count: 64), lastHash: "hash-\(last)")
    }

    @Test("an archive continues the last one, file after file, and stops before the head")
    func rules() throws {
        let decision = try LogArchiveDecider.archive([Self.file(101, 200), Self.file(201, 300)], archivedThrough: 100, head: 350)
        let event = try #require(decision.events.first)
        #expect(event.stream == LogArchived.stream && event.type == LogArchived.type)
        #expect(decision.idempotencyKey == "log-archive:300")
        let code = { (files: [LogArchived.File], through: Int64, head: Int64) -> String? in
            do { _ = try LogArchiveDecider.archive(files, archivedThrough: through, head: head); return nil } catch let refusal as Refusal { return refusal.code.rawValue } catch { return "\(error)" }
        }
        #expect(code([], 0, 10) == "nothing_to_archive")
        #expect(code([Self.file(1, 100)], 100, 500) == "archive_out_of_order", "a hole, or archived twice")
        #expect(code([Self.file(101, 200)], 0, 500) == "archive_out_of_order", "a hole after position 0")
        #expect(code([Self.file(1, 100), Self.file(102, 200)], 0, 500) == "archive_out_of_order", "files with a hole between them")
        #expect(code([Self.file(1, 100, events: 99)], 0, 500) == "archive_out_of_order", "a file short of an event")
        #expect(code([Self.file(1, 100)], 0, 100) == "archive_out_of_order", "the head stays live")
        #expect(code([Self.file(1, 100)], 0, 101) == nil)
    }
}
