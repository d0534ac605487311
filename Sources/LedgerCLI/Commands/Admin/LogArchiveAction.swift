import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
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

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let ownerURL = session.services.ownerURL else {
            throw AdminError(.configuration, "detaching partitions needs the schema owner's role: set LEDGER_MIGRATION_DATABASE_URL")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--dir \(directory) is not a directory")
        }
        let owner = try PostgresConnection(conninfo: ownerURL)
        let head = try LogReader(owner).headPosition()
        let acts = try LogReader(owner).readStream(LogArchived.stream).map { try $0.decode(LogArchived.self) }
        let archivedThrough = acts.last?.archivedThrough ?? 0
        let partitions = try ArchiveWriter.partitions(on: owner)
        var receipt = AdminReceipt()
        var through = archivedThrough
        let fresh = partitions.filter { $0.first > archivedThrough && $0.last < before && $0.last < head }
        if fresh.isEmpty && !partitions.contains(where: { $0.last <= archivedThrough }) {
            try session.check(LogArchiveAct(files: []))
        }
        if !fresh.isEmpty {
            var link = acts.last.flatMap { Hex.decode($0.lastHash) } ?? HashChain.genesis
            var files: [LogArchived.File] = []
            for partition in fresh {
                let file = try archiving { try ArchiveWriter.write(partition, linkedTo: link, into: directory, on: owner) }
                files.append(file)
                link = Hex.decode(file.lastHash) ?? []
            }
            receipt.events = try session.perform(LogArchiveAct(files: files))
            through = files.last?.lastPosition ?? through
            receipt.lines = files.map { "wrote \(directory)/\($0.name): events \($0.firstPosition) to \($0.lastPosition), sha256 \($0.sha256)" }
        } else {
            receipt.notes = ["positions up to \(archivedThrough) were archived before; detaching what is still attached"]
        }
        for partition in partitions where partition.last <= through {
            try archiving { try ArchiveWriter.detach(partition, drop: drop, on: owner) }
            receipt.lines.append(drop ? "dropped partition \(partition.name)" : "detached partition \(partition.name) (kept as table archived_\(partition.name); drop it once the files are stored)")
        }
        receipt.lines.append("positions 1 to \(through) are archived; check them with `ledger verify --archive FILE ...`, replay with `ledger replay --archive FILE ...`")
        receipt.fields["archived_through"] = .integer(through)
        return receipt
    }

    /// The writer's failures are the command's `append_failed`: nothing was recorded.
    private func archiving<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch let failure as ArchiveWriter.Failure { throw AdminError(.appendFailed, failure.message) }
    }
}
