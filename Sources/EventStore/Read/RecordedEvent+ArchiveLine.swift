import Crypto
import Foundation
import LedgerDomain
import LedgerJSON

extension RecordedEvent {
    /// The fields of a line of `ledger export events --format jsonl` and of an archive file,
    /// in the order they are written.
    public static let archiveFields = ["position", "event_id", "stream", "stream_version", "type", "occurred_at", "recorded_at",
                                       "corrects_position", "idempotency_key", "data", "metadata", "prev_hash", "hash"]

    /// The event as one JSON object: `data` and `metadata` as the exact text the hash
    /// covers (a string each), both hashes in hex. Everything the chain needs, so a file of
    /// such lines is checked with nothing of the database (docs/audit.md).
    public var archiveLine: String {
        let object: [String: JSONValue] = [
            "position": .integer(position), "event_id": .string(eventID.uuidString.lowercased()), "stream": .string(stream),
            "stream_version": .integer(streamVersion), "type": .string(type), "occurred_at": .string(occurredAt.iso8601),
            "recorded_at": .string(recordedAt.iso8601), "corrects_position": correctsPosition.map(JSONValue.integer) ?? .null,
            "idempotency_key": idempotencyKey.map(JSONValue.string) ?? .null, "data": .string(dataText),
            "metadata": .string(metadataText), "prev_hash": .string(Hex.encode(prevHash)), "hash": .string(Hex.encode(hash)),
        ]
        return JSONValue.object(object).compactText()
    }

    /// Why a line is not an event.
    public struct LineError: Error, CustomStringConvertible {
        public var description: String
    }

    /// An event from a line `archiveLine` wrote. Its hashes are taken as written: checking
    /// them is the chain's business (`HashChain`, `ArchiveReader`).
    public convenience init(archiveLine line: some Collection<UInt8>) throws(LineError) {
        let row: JSONValue
        do { row = try JSONValue.parse(line) } catch { throw LineError(description: "not a JSON object: \(error)") }
        func string(_ name: String) throws(LineError) -> String {
            guard let value = row[name]?.stringValue else { throw LineError(description: "\(name) missing or not a string") }
            return value
        }
        func hash(_ name: String) throws(LineError) -> [UInt8] {
            guard let bytes = Hex.decode(try string(name)), bytes.count == 32 else { throw LineError(description: "\(name) is not 64 hex digits") }
            return bytes
        }
        guard let position = row["position"]?.int64Value, let version = row["stream_version"]?.int64Value else {
            throw LineError(description: "position and stream_version must be integers")
        }
        guard let id = UUID(uuidString: try string("event_id")), let occurred = Timestamp(iso8601: try string("occurred_at")),
              let recorded = Timestamp(iso8601: try string("recorded_at")) else {
            throw LineError(description: "event_id, occurred_at or recorded_at does not parse")
        }
        self.init(position: position, eventID: id, stream: try string("stream"), streamVersion: version, type: try string("type"),
                  dataText: try string("data"), metadataText: try string("metadata"), occurredAt: occurred, recordedAt: recorded,
                  correctsPosition: row["corrects_position"]?.int64Value, idempotencyKey: row["idempotency_key"]?.stringValue,
                  prevHash: try hash("prev_hash"), hash: try hash("hash"))
    }
}
