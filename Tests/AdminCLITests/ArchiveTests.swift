import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import Synchronization
import TestSupport
import Testing

/// `ledger archive` exports whole old partitions to files carrying their chain
/// segment and detaches them; `ledger verify` checks the files and the live log from
/// where they end; a replay still starts from position 1 given the files.
@Suite("Archiving old partitions of the log", .bounded)
struct ArchiveTests {
    /// The auditor's query for an archived log, as docs/audit.md prints it.
    static func archivedAuditQuery() throws -> String {
        let doc = try String(contentsOfFile: TestDatabase.repositoryRoot + "/docs/audit.md", encoding: .utf8)
        let after = try #require(doc.range(of: "This variant starts there")).upperBound
        let start = try #require(doc.range(of: "```sql\n", range: after..<doc.endIndex)).upperBound
        let end = try #require(doc.range(of: "```", range: start..<doc.endIndex)).lowerBound
        return String(doc[start..<end])
    }

    func archive(_ f: AdminFixture, _ arguments: [String]) -> AdminOutcome {
        ArchiveCommand.execute(arguments + ["--reason", "yearly archive"], environment: AdminFixture.operatorEnvironment) { f.services }
    }

    @Test("archive → verify → replay: the files check, the live log continues from them, and projections rebuild from position 1 the same")
    func roundTrip() throws {
        let f = try AdminFixture(partitionSize: 100)
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("app", payer: "acme")
        for i in 0..<240 { try f.usage("app", .storageBytes, Int64(1_000 + i), at: "2026-11-0\(1 + i % 9)T10:00:00Z") }
        try f.settle()
        let head = try f.head()
        #expect(head > 240)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }

        let outcome = archive(f, ["--before", "230", "--dir", dir])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let files = ["\(dir)/events-1-100.jsonl", "\(dir)/events-101-200.jsonl"]
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == files.map { ($0 as NSString).lastPathComponent })
        // Out of the database, and said so in the log.
        let superuser = try f.db.connect()
        #expect(try LogReader(superuser).firstLivePosition() == 201)
        #expect(try superuser.query("SELECT count(*) FROM pg_tables WHERE tablename IN ('archived_events_1', 'archived_events_101')")[0].requireInt64(0) == 2)
        let act = try #require(try LogReader(superuser).readStream(LogArchived.stream).last)
        let archived = try act.decode(LogArchived.self)
        #expect(archived.archivedThrough == 200 && archived.files.map(\.name) == ["events-1-100.jsonl", "events-101-200.jsonl"])
        #expect(act.position == head + 1)
        #expect(try ArchiveSegment.read(files[1]).lastHash == Hex.decode(archived.lastHash))
        // A reader that would skip the archived positions is stopped instead.
        #expect(throws: ArchivedPositions.self) { try f.events(after: 0) }
        // The live projector goes on after the archived positions.
        try f.settle()
        // The drift check cannot fold from the live log an account whose first events are
        // archived: it says so, rather than report a difference.
        let drift = try #require(try ProjectionDriftCheck(connections: PostgresPool(conninfo: f.db.projectorURL, maximumConnections: 2)).run().first)
        #expect(drift.failureCode == nil && drift.drifted.isEmpty && drift.accounts.isEmpty, "\(String(describing: drift))")
        #expect(drift.skipped.count == 2 && drift.skipped.allSatisfy { $0.contains("are archived") }, "\(drift.skipped)")

        // The live chain verifies from the recorded hash; with the files, from position 1.
        let report = try ChainVerifier().verify(on: superuser)
        #expect(report.isValid && report.archivedThrough == 200 && report.verified == head + 1 - 200,
                "\(String(describing: report.failure))")
        // The auditor's SQL agrees: intact from the archive act's hash, and it names a
        // changed row of the live log.
        let query = try Self.archivedAuditQuery()
        #expect(try superuser.query(query).rowCount == 0)
        try superuser.query("BEGIN")
        try superuser.query("SET LOCAL session_replication_role = replica")
        try superuser.query(#"UPDATE events SET type = 'forged' WHERE position = 205"#)
        #expect(try superuser.query(query).rows.first?.int64(0) == 205)
        try superuser.query("ROLLBACK")
        let env = ["DATABASE_URL": f.db.writerURL, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory]
        let verify = try LedgerBinary.start(["verify"] + files.flatMap { ["--archive", $0] }, environment: env)
        #expect(verify.wait() == 0, "\(verify.output) \(verify.errors)")
        #expect(verify.output.contains("archive \(files[1]): valid, events 101 to 200 (100)"))
        #expect(verify.output.contains("201 (linked)"))
        #expect(verify.output.contains("positions 1 to 200 are archived"))

        // Replay from position 1: the files, then the live log; the same rows as live.
        var rebuilder = ProjectionRebuilder(conninfo: f.db.projectorURL, log: { _, _, _ in })
        #expect(throws: ArchivedPositions.self) { try rebuilder.build(AllProjections.all).discard() }
        rebuilder.archives = files
        let rebuilt = try rebuilder.build(AllProjections.all)
        let differences = try rebuilt.differences()
        rebuilt.discard()
        let changed = differences.contains { !$0.isUnchanged }
        #expect(!changed, "the rebuild from the archive differs from the live projections")
        rebuilder.archives = [files[1]]
        #expect(throws: ArchiveReader.Invalid.self) { try rebuilder.build(AllProjections.all).discard() }

        // A projection the projector must build from scratch on the archived log (one new
        // in this version, or dropped) is rebuilt from LEDGER_ARCHIVE_DIR, then follows the log.
        f.stopProjector()
        try superuser.query("DROP SCHEMA proj_billing CASCADE")
        let projector = ProjectorThread(url: f.db.projectorURL, archiveDirectory: dir)
        let rebuiltHead = try f.head()
        #expect(try Poll.until(timeout: 30) {
            try f.pool.read { try ProjectionSchema.progress("proj_billing", on: $0)?.position ?? -1 } >= rebuiltHead
        })
        projector.stop()
        f.startProjector()
        rebuilder.archives = files
        let rebuiltAgain = try rebuilder.build(AllProjections.all)
        let sinceProjector = try rebuiltAgain.differences()
        rebuiltAgain.discard()
        #expect(!sinceProjector.contains { !$0.isUnchanged }, "the projector's rebuild from the archive differs from a replay")
        // Without the directory it refuses, and says why, rather than fold a log with a hole.
        try superuser.query("DROP SCHEMA proj_billing CASCADE")
        f.stopProjector()
        let logged = Mutex<[String]>([])
        let blind = Projector(configuration: .init(conninfo: f.db.projectorURL, projections: AllProjections.all, pollInterval: 0.05),
                              log: { _, message, fields in logged.withLock { $0.append(message + " " + (fields["error"] ?? "")) } })
        let stop = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        Thread { blind.run { stop.load(ordering: .relaxed) }; done.signal() }.start()
        #expect(Poll.until(timeout: 20) { logged.withLock { $0.contains { $0.contains("positions 1 to 200 are archived") } } })
        stop.store(true, ordering: .relaxed)
        done.wait()
        f.startProjector()

        // A changed byte in a file is caught, by verify and by the replay.
        var text = try String(contentsOfFile: files[0], encoding: .utf8)
        let original = text
        text = text.replacingOccurrences(of: #""type":"usage.recorded""#, with: #""type":"usage.recordeX""#)
        try #require(text != original)
        try text.write(toFile: files[0], atomically: true, encoding: .utf8)
        let tampered = try LedgerBinary.start(["verify"] + files.flatMap { ["--archive", $0] }, environment: env)
        #expect(tampered.wait() == 1)
        #expect(tampered.output.contains("INVALID archive"))
        rebuilder.archives = files
        #expect(throws: ArchiveReader.Invalid.self) { try rebuilder.build(AllProjections.all).discard() }

        // Nothing more to archive before 230: refused, nothing appended.
        let headNow = try f.head()
        let again = archive(f, ["--before", "230", "--dir", dir])
        #expect(again.status == 1 && again.errors.contains("nothing_to_archive"), "\(again.errors)")
        #expect(try f.head() == headNow)
        // Never the partition that holds the head.
        let all = archive(f, ["--before", String(headNow + 1000), "--dir", dir])
        #expect(all.status == 1 && all.errors.contains("nothing_to_archive"), "\(all.errors)")
        #expect(try LogReader(superuser).firstLivePosition() == 201)
    }

    @Test("a run stopped after recording the act detaches on the next run, appending nothing more")
    func resumesADetach() throws {
        let f = try AdminFixture(partitionSize: 100)
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("app", payer: "acme")
        for i in 0..<150 { try f.usage("app", .storageBytes, Int64(i + 1), at: "2026-11-02T10:00:00Z") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The act as a run that crashed between its append and its detach left it.
        let hundred = try #require(try f.store.log.event(at: 100))
        let file = LogArchived.File(name: "events-1-100.jsonl", partition: "events_1", firstPosition: 1, lastPosition: 100,
                                    events: 100, sha256: String(repeating: "0", count: 64), lastHash: Hex.encode(hundred.hash))
        try f.append(LogArchived(archivedThrough: 100, lastHash: Hex.encode(hundred.hash), files: [file]), stream: LogArchived.stream)
        let superuser = try f.db.connect()
        #expect(try ChainVerifier().verify(on: superuser).archivedThrough == 0, "still attached, so still checked")
        let head = try f.head()
        let rerun = archive(f, ["--before", "101", "--dir", dir])
        #expect(rerun.status == 0, "\(rerun.errors)")
        #expect(rerun.output.contains("detached partition events_1"))
        #expect(try f.head() == head, "the act was recorded once")
        #expect(try LogReader(superuser).firstLivePosition() == 101)
        let report = try ChainVerifier().verify(on: superuser)
        #expect(report.isValid && report.archivedThrough == 100)
    }
}
