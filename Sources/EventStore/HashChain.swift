import Crypto
import Foundation
import LedgerDomain

/// The log's tamper-evidence: `hash = SHA-256(prev_hash ‖ canonical bytes)`, where the
/// canonical bytes are the UTF-8 of the event's fields joined by newlines. The SQL
/// function `event_canonical_bytes` (sql/0001) computes the same bytes from a stored row,
/// and docs/audit.md gives the formula to auditors.
public enum HashChain {
    /// `prev_hash` of position 1.
    public static let genesis = [UInt8](repeating: 0, count: 32)
    static let version = "ledger-event-v1"

    /// The fields of one event as the chain sees them.
    public struct Fields: Sendable {
        public var position: Int64
        public var eventID: UUID
        public var stream: String
        public var streamVersion: Int64
        public var type: String
        public var occurredAt: Timestamp
        public var recordedAt: Timestamp
        public var correctsPosition: Int64?
        public var idempotencyKey: String?
        /// Exactly `data::text` as PostgreSQL prints it.
        public var dataText: String
        /// Exactly `metadata::text` as PostgreSQL prints it.
        public var metadataText: String

        public init(position: Int64, eventID: UUID, stream: String, streamVersion: Int64, type: String, occurredAt: Timestamp,
                    recordedAt: Timestamp, correctsPosition: Int64?, idempotencyKey: String?, dataText: String, metadataText: String) {
            self.position = position
            self.eventID = eventID
            self.stream = stream
            self.streamVersion = streamVersion
            self.type = type
            self.occurredAt = occurredAt
            self.recordedAt = recordedAt
            self.correctsPosition = correctsPosition
            self.idempotencyKey = idempotencyKey
            self.dataText = dataText
            self.metadataText = metadataText
        }

        /// The fields in the text form the chain hashes.
        var texts: Texts {
            Texts(position: position, eventID: eventID.lowercaseText, stream: stream, streamVersion: streamVersion, type: type,
                  occurredAt: occurredAt.iso8601, recordedAt: recordedAt.iso8601, correctsPosition: correctsPosition,
                  idempotencyKey: idempotencyKey, dataText: dataText, metadataText: metadataText)
        }
    }

    /// The fields already rendered as text; the appender renders each once and uses the
    /// same strings for the hash and for the row it writes.
    struct Texts: Sendable {
        var position: Int64
        var eventID: String
        var stream: String
        var streamVersion: Int64
        var type: String
        var occurredAt: String
        var recordedAt: String
        var correctsPosition: Int64?
        var idempotencyKey: String?
        var dataText: String
        var metadataText: String
    }

    public static func canonicalBytes(_ fields: Fields) -> [UInt8] { canonicalBytes(fields.texts) }

    public static func hash(previous: [UInt8], fields: Fields) -> [UInt8] { hash(previous: previous, texts: fields.texts) }

    static func canonicalBytes(_ f: Texts) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(f.dataText.utf8.count + f.metadataText.utf8.count + 256)
        func line(_ s: String) {
            out.append(contentsOf: s.utf8)
            out.append(0x0A)
        }
        line(version)
        line(String(f.position))
        line(f.eventID)
        line(f.stream)
        line(String(f.streamVersion))
        line(f.type)
        line(f.occurredAt)
        line(f.recordedAt)
        line(f.correctsPosition.map(String.init) ?? "")
        line(f.idempotencyKey ?? "")
        line(f.dataText)
        out.append(contentsOf: f.metadataText.utf8)
        return out
    }

    static func hash(previous: [UInt8], texts: Texts) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update(previous)
        hasher.update(canonicalBytes(texts))
        return hasher.finalize()
    }
}
