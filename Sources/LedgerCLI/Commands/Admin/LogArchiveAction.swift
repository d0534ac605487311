import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres

/// `ledger archive`: exports the log's oldest whole partitions to files that carry their
/// chain segment, records the act in the log (`log.archived`), then detaches them
/// (docs/scaling.md). In that order, so that a crash leaves either nothing done, files
/// written and nothing recorded (the run writes them again), or the act recorded and the
/// partitions still attached: a rerun detaches those first. Running it again is safe.
struct LogArchiveAction: AdminAction {
    static let words: [String] = []
    static let synopsis = "--before POSITION --dir DIR [--drop]"
    static let summary = "Export the whole partitions of the log before POSITION to files in DIR, record it in the log, and detach them."
    static let valued: Set<String> = ["before", "dir"]
    static let boolean: Set<String> = ["drop"]
    /// The act's key names the positions it archives, and a rerun resumes a detach.
    static let appendsUnderSessionKey = false

    let before: Int64
    let directory: String
    let drop: Bool

    init(_ options: AdminOptions) throws {
        let text = try options.arguments.require("before")
        guard let before = Int64(text), before > 1, String(before) == text else {
            throw UsageError("--before must be a position above 1, got \(text.debugDescription)")
        }
        self.before = before
        self.directory = try options.arguments.require("dir")
        self.drop = options.flag("drop")
    }

    struct Partition {
        var name: String
        var first: Int64
        var last: Int64
        var detachPending: Bool
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let ownerURL = session.services.ownerURL else {
            throw AdminError(.configuration, "detaching partitions needs the schema owner's role: set LEDGER_MIGRATION_DATABASE_URL")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--dir \(directory) is not a directory")
        }
        let owner = try PostgresConnection(conninfo: ownerURL)
        let head = try EventStore.headPosition(on: owner)
        let acts = try EventStore.readStream(LogArchived.stream, on: owner).map { try $0.decode(LogArchived.self) }
        let archivedThrough = acts.last?.archivedThrough ?? 0
        let partitions = try Self.partitions(on: owner)
        var receipt = AdminReceipt()
        var through = archivedThrough
        let fresh = partitions.filter { $0.first > archivedThrough && $0.last < before && $0.last < head }
        if fresh.isEmpty && !partitions.contains(where: { $0.last <= archivedThrough }) {
            _ = try session.decide { try LogArchiveDecider.archive([], archivedThrough: archivedThrough, head: head) }
        }
        if !fresh.isEmpty {
            var link = acts.last.flatMap { Hex.decode($0.lastHash) } ?? HashChain.genesis
            var files: [LogArchived.File] = []
            for partition in fresh {
                let file = try write(partition, linkedTo: link, on: owner)
                files.append(file)
                link = Hex.decode(file.lastHash) ?? []
            }
            let decision = try session.decide { try LogArchiveDecider.archive(files, archivedThrough: archivedThrough, head: head) }
            receipt.events = try session.append(decision)
            through = files.last?.lastPosition ?? through
            receipt.lines = files.map { "wrote \(directory)/\($0.name): events \($0.firstPosition) to \($0.lastPosition), sha256 \($0.sha256)" }
        } else {
            receipt.notes = ["positions up to \(archivedThrough) were archived before; detaching what is still attached"]
        }
        for partition in partitions where partition.last <= through {
            try detach(partition, on: owner)
            receipt.lines.append(drop ? "dropped partition \(partition.name)" : "detached partition \(partition.name) (kept as table archived_\(partition.name); drop it once the files are stored)")
        }
        receipt.lines.append("positions 1 to \(through) are archived; check them with `ledger verify --archive FILE ...`, replay with `ledger replay --archive FILE ...`")
        receipt.fields["archived_through"] = .integer(through)
        return receipt
    }

    static func partitions(on connection: PostgresConnection) throws -> [Partition] {
        try connection.query("""
            SELECT p.name, p.first_position, p.last_position, i.inhdetachpending
            FROM event_log_partitions p JOIN pg_inherits i ON i.inhrelid = p.name::regclass
            ORDER BY p.first_position
            """).rows.map { row in
            Partition(name: try row.requireString(0), first: try row.requireInt64(1), last: try row.requireInt64(2),
                      detachPending: row.bool(3) ?? false)
        }
    }

    /// Writes the partition's events to `events-FIRST-LAST.jsonl` (through a temporary file,
    /// synced before it is renamed), then reads the file back and checks its chain.
    private func write(_ partition: Partition, linkedTo link: [UInt8], on connection: PostgresConnection) throws -> LogArchived.File {
        let name = "events-\(partition.first)-\(partition.last).jsonl"
        let path = directory + "/" + name
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil) , let handle = FileHandle(forWritingAtPath: partial) else {
            throw AdminError(.appendFailed, "cannot write \(partial)")
        }
        var hasher = SHA256Hasher()
        var cursor = partition.first - 1
        var lastHash: [UInt8] = []
        while cursor < partition.last {
            let page = try EventStore.read(after: cursor, limit: Int(min(10_000, partition.last - cursor)), on: connection)
            guard let end = page.last else { break }
            var chunk = Data()
            for event in page { chunk.append(contentsOf: Array((event.archiveLine + "\n").utf8)) }
            chunk.withUnsafeBytes { hasher.update($0) }
            try handle.write(contentsOf: chunk)
            cursor = end.position
            lastHash = end.hash
        }
        try handle.synchronize()
        try handle.close()
        let segment: ArchiveSegment
        do { segment = try ArchiveSegment.read(partial) } catch {
            throw AdminError(.appendFailed, "the file written for \(partition.name) does not check: \(error)")
        }
        guard segment.firstPosition == partition.first, segment.lastPosition == partition.last,
              segment.previousHash == link, segment.lastHash == lastHash else {
            throw AdminError(.appendFailed, "the file written for \(partition.name) holds \(segment.firstPosition) to \(segment.lastPosition), not the partition's \(partition.first) to \(partition.last) linked to the archive before it")
        }
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return LogArchived.File(name: name, partition: partition.name, firstPosition: partition.first, lastPosition: partition.last,
                                events: Int64(segment.events), sha256: Hex.encode(hasher.finalize()), lastHash: Hex.encode(lastHash))
    }

    /// DETACH … CONCURRENTLY takes no lock that stops reads or appends; one interrupted half
    /// way is finished (FINALIZE) by the next run.
    private func detach(_ partition: Partition, on connection: PostgresConnection) throws {
        // Names come from the catalog; DDL takes no parameters, so they are checked instead.
        guard partition.name.wholeMatch(of: /events_[0-9]+/) != nil else {
            throw AdminError(.appendFailed, "unexpected partition name \(partition.name.debugDescription)")
        }
        try connection.query("ALTER TABLE events DETACH PARTITION \(partition.name) \(partition.detachPending ? "FINALIZE" : "CONCURRENTLY")")
        if drop {
            try connection.query("DROP TABLE \(partition.name)")
        } else {
            try connection.query("ALTER TABLE \(partition.name) RENAME TO archived_\(partition.name)")
        }
    }
}
