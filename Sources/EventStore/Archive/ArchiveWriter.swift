import Crypto
import Foundation
import LedgerDomain
import Postgres

/// The archive's writer, beside its reader (`ArchiveReader`, `ArchiveSegment`): the log's
/// partitions from the catalog, each exported to a file that carries its chain segment,
/// and detached once the act is recorded (`ledger archive`, docs/scaling.md). It needs a
/// connection of the schema's owner: the service's role may not detach partitions.
public enum ArchiveWriter {
    /// A partition of `events` and the positions it holds.
    public struct Partition: Sendable, Equatable {
        public var name: String
        public var first: Int64
        public var last: Int64
        /// A `DETACH … CONCURRENTLY` interrupted half way, to be finished.
        public var detachPending: Bool
    }

    /// Why a file or a detach failed; nothing was recorded in the log.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The attached partitions of the log, oldest first.
    public static func partitions(on connection: PostgresConnection) throws -> [Partition] {
        try connection.query("""
            SELECT p.name, p.first_position, p.last_position, i.inhdetachpending
            FROM event_log_partitions p JOIN pg_inherits i ON i.inhrelid = p.name::regclass
            ORDER BY p.first_position
            """).rows.map { row in
            Partition(name: try row.requireString(0), first: try row.requireInt64(1), last: try row.requireInt64(2),
                      detachPending: row.bool(3) ?? false)
        }
    }

    /// Writes the partition's events to `DIRECTORY/events-FIRST-LAST.jsonl` (through a
    /// temporary file, synced before it is renamed), then reads the file back and checks
    /// that its chain starts from `link`, the last hash of the archive before it.
    public static func write(_ partition: Partition, linkedTo link: [UInt8], into directory: String,
                             on connection: PostgresConnection) throws -> LogArchived.File {
        let name = "events-\(partition.first)-\(partition.last).jsonl"
        let path = directory + "/" + name
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw Failure(message: "cannot write \(partial)")
        }
        var hasher = SHA256Hasher()
        var cursor = partition.first - 1
        var lastHash: [UInt8] = []
        while cursor < partition.last {
            let page = try LogReader(connection).read(after: cursor, limit: Int(min(10_000, partition.last - cursor)))
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
            throw Failure(message: "the file written for \(partition.name) does not check: \(error)")
        }
        guard segment.firstPosition == partition.first, segment.lastPosition == partition.last,
              segment.previousHash == link, segment.lastHash == lastHash else {
            throw Failure(message: "the file written for \(partition.name) holds \(segment.firstPosition) to \(segment.lastPosition), not the partition's \(partition.first) to \(partition.last) linked to the archive before it")
        }
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return LogArchived.File(name: name, partition: partition.name, firstPosition: partition.first, lastPosition: partition.last,
                                events: Int64(segment.events), sha256: Hex.encode(hasher.finalize()), lastHash: Hex.encode(lastHash))
    }

    /// Detaches the partition (`DETACH … CONCURRENTLY` takes no lock that stops reads or
    /// appends; one interrupted half way is finished with FINALIZE), then drops it or keeps
    /// it as `archived_<name>`.
    public static func detach(_ partition: Partition, drop: Bool, on connection: PostgresConnection) throws {
        // Names come from the catalog; DDL takes no parameters, so they are checked instead.
        guard partition.name.wholeMatch(of: /events_[0-9]+/) != nil else {
            throw Failure(message: "unexpected partition name \(partition.name.debugDescription)")
        }
        try connection.query("ALTER TABLE events DETACH PARTITION \(partition.name) \(partition.detachPending ? "FINALIZE" : "CONCURRENTLY")")
        if drop {
            try connection.query("DROP TABLE \(partition.name)")
        } else {
            try connection.query("ALTER TABLE \(partition.name) RENAME TO archived_\(partition.name)")
        }
    }
}
