import Crypto
import Foundation

/// Reads a segment of the log from a file (`ledger archive`, or `ledger export events
/// --format jsonl`) a chunk at a time, and checks its chain as it goes: consecutive
/// positions, each `prev_hash` the hash before it, each `hash` recomputed from the fields.
/// Nothing of the database is needed, so a file is checked on its own; memory stays at a
/// chunk whatever the size of the file.
public final class ArchiveReader {
    public let path: String
    /// Set once the first event is read.
    public private(set) var firstPosition: Int64?
    /// The hash of the event before the segment (32 zero bytes before position 1).
    public private(set) var previousHash: [UInt8]?
    public private(set) var lastPosition: Int64 = 0
    public private(set) var lastHash: [UInt8]?
    public private(set) var count = 0

    private let handle: FileHandle
    private var pending: [UInt8] = []
    /// Where the unread part of `pending` starts: lines are sliced off without moving it.
    private var start = 0
    private var line = 0
    private var exhausted = false

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public init(path: String) throws(Invalid) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Invalid(description: "\(path): cannot be opened") }
        self.path = path
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Up to `limit` more events, checked; empty at the end of the file.
    public func next(limit: Int) throws(Invalid) -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        while events.count < limit {
            guard let bytes = nextLine() else { break }
            line += 1
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0d }) { continue }
            let at = "\(path):\(line)"
            let event: RecordedEvent
            do { event = try RecordedEvent(archiveLine: bytes) } catch { throw Invalid(description: "\(at): \(error)") }
            try check(event, at: at)
            events.append(event)
        }
        return events
    }

    /// Reads and checks the rest of the file; the segment it holds.
    public func readToEnd() throws(Invalid) -> ArchiveSegment {
        while !(try next(limit: 10_000)).isEmpty {}
        guard let firstPosition, let previousHash, let lastHash else { throw Invalid(description: "\(path): no events") }
        return ArchiveSegment(path: path, firstPosition: firstPosition, lastPosition: lastPosition,
                              previousHash: previousHash, lastHash: lastHash, events: count)
    }

    /// The events of one type in a file, found without parsing the other lines (a line is
    /// parsed only when it contains the type's name). Not checked: the full read is.
    public static func events(ofType type: String, in path: String) throws(Invalid) -> [RecordedEvent] {
        let reader = try ArchiveReader(path: path)
        let needle = Array(type.utf8)
        var found: [RecordedEvent] = []
        while let bytes = reader.nextLine() {
            reader.line += 1
            guard bytes.count >= needle.count, bytes.indices.dropLast(needle.count - 1).contains(where: { bytes[$0..<$0 + needle.count].elementsEqual(needle) }) else { continue }
            do {
                let event = try RecordedEvent(archiveLine: bytes)
                if event.type == type { found.append(event) }
            } catch {
                throw Invalid(description: "\(path):\(reader.line): \(error)")
            }
        }
        return found
    }

    private func check(_ event: RecordedEvent, at: String) throws(Invalid) {
        let p = event.position
        if let lastHash {
            if p != lastPosition + 1 { throw Invalid(description: "\(at): position \(p) after \(lastPosition): the segment has a hole") }
            if event.prevHash != lastHash { throw Invalid(description: "\(at): position \(p) does not link to the hash of \(lastPosition)") }
        } else {
            if p == 1 && event.prevHash != HashChain.genesis { throw Invalid(description: "\(at): position 1 must follow 32 zero bytes") }
            firstPosition = p
            previousHash = event.prevHash
        }
        guard HashChain.hash(previous: event.prevHash, fields: event.chainFields) == event.hash else {
            throw Invalid(description: "\(at): position \(p): its hash is not SHA-256 of its prev_hash and fields (changed after it was written?)")
        }
        lastPosition = p
        lastHash = event.hash
        count += 1
    }

    private func nextLine() -> [UInt8]? {
        while true {
            if let newline = pending[start...].firstIndex(of: 0x0a) {
                let bytes = Array(pending[start..<newline])
                start = newline + 1
                return bytes
            }
            if exhausted {
                guard start < pending.count else { return nil }
                defer { pending = []; start = 0 }
                return Array(pending[start...])
            }
            pending.removeSubrange(..<start)
            start = 0
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { exhausted = true } else { pending.append(contentsOf: chunk) }
        }
    }
}
