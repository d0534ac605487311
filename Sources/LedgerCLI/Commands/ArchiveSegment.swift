import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON

/// A segment of the log in a file, as `ledger export events --format jsonl` writes it
/// (the exact hashed text of `data` and `metadata`, both hashes), checked on its own by
/// `ledger verify --archive`: consecutive positions, each `prev_hash` the hash before it,
/// each `hash` recomputed from the fields. Nothing of our database is needed to check it.
struct ArchiveSegment {
    let path: String
    let firstPosition: Int64
    let lastPosition: Int64
    /// The hash of the event before the segment (32 zero bytes before position 1).
    let previousHash: [UInt8]
    let lastHash: [UInt8]
    let events: Int

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads and checks the file line by line.
    static func read(_ path: String) throws -> ArchiveSegment {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Invalid(description: "\(path): cannot be read as UTF-8 text")
        }
        var first: Int64?
        var previous: [UInt8]?
        var start: [UInt8]?
        var position: Int64 = 0
        var count = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let at = "\(path):\(number + 1)"
            let row: JSONValue
            do { row = try JSONValue.parse(String(line)) } catch { throw Invalid(description: "\(at): not a JSON object: \(error)") }
            func string(_ name: String) throws -> String {
                guard let value = row[name]?.stringValue else { throw Invalid(description: "\(at): \(name) missing or not a string") }
                return value
            }
            func hash(_ name: String) throws -> [UInt8] {
                guard let bytes = Hex.decode(try string(name)), bytes.count == 32 else { throw Invalid(description: "\(at): \(name) is not 64 hex digits") }
                return bytes
            }
            guard let p = row["position"]?.int64Value, let version = row["stream_version"]?.int64Value else {
                throw Invalid(description: "\(at): position and stream_version must be integers")
            }
            guard let id = UUID(uuidString: try string("event_id")), let occurred = Timestamp(iso8601: try string("occurred_at")),
                  let recorded = Timestamp(iso8601: try string("recorded_at")) else {
                throw Invalid(description: "\(at): event_id, occurred_at or recorded_at does not parse")
            }
            if first == nil { first = p }
            if count > 0 && p != position + 1 { throw Invalid(description: "\(at): position \(p) after \(position): the segment has a hole") }
            let prev = try hash("prev_hash")
            if let previous, prev != previous { throw Invalid(description: "\(at): position \(p) does not link to the hash of \(position)") }
            if count == 0 {
                start = prev
                if p == 1 && prev != HashChain.genesis { throw Invalid(description: "\(at): position 1 must follow 32 zero bytes") }
            }
            let fields = HashChain.Fields(position: p, eventID: id, stream: try string("stream"), streamVersion: version,
                                          type: try string("type"), occurredAt: occurred, recordedAt: recorded,
                                          correctsPosition: row["corrects_position"]?.int64Value, idempotencyKey: row["idempotency_key"]?.stringValue,
                                          dataText: try string("data"), metadataText: try string("metadata"))
            let recomputed = HashChain.hash(previous: prev, fields: fields)
            guard recomputed == (try hash("hash")) else {
                throw Invalid(description: "\(at): position \(p): its hash is not SHA-256 of its prev_hash and fields (changed after it was written?)")
            }
            previous = recomputed
            position = p
            count += 1
        }
        guard let first, let start, let previous else { throw Invalid(description: "\(path): no events") }
        return ArchiveSegment(path: path, firstPosition: first, lastPosition: position, previousHash: start, lastHash: previous, events: count)
    }
}
