import Foundation
import LedgerDomain
import LedgerJSON
import Postgres

/// An event as the log holds it, immutable.
///
/// A class, so that a copy (a batch handed to every projection, an event paired with its
/// decoded payload) costs one reference count rather than one per string and array:
/// copies dominated a replay's profile. Nothing in it changes once read, so sharing it is
/// sharing a value.
public final class RecordedEvent: Sendable, Equatable {
    public let position: Int64
    public let eventID: UUID
    public let stream: String
    public let streamVersion: Int64
    public let type: String
    /// `data::text` exactly as PostgreSQL printed it (the hash chain's input).
    public let dataText: String
    /// `metadata::text` exactly as PostgreSQL printed it.
    public let metadataText: String
    public let occurredAt: Timestamp
    public let recordedAt: Timestamp
    public let correctsPosition: Int64?
    public let idempotencyKey: String?
    private let prevDigest: ChainDigest
    private let digest: ChainDigest

    /// The hash of the event before it in the chain (32 bytes), as a new array.
    public var prevHash: [UInt8] { prevDigest.bytes }
    /// This event's hash in the chain (32 bytes), as a new array.
    public var hash: [UInt8] { digest.bytes }

    /// This event's hash, lent to `body` without an array (a fold that hashes every event).
    public func withHash<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try digest.withUnsafeBytes(body)
    }

    public static func == (a: RecordedEvent, b: RecordedEvent) -> Bool {
        a === b
            || (a.position == b.position && a.eventID == b.eventID && a.stream == b.stream && a.streamVersion == b.streamVersion
                && a.type == b.type && a.dataText == b.dataText && a.metadataText == b.metadataText
                && a.occurredAt == b.occurredAt && a.recordedAt == b.recordedAt && a.correctsPosition == b.correctsPosition
                && a.idempotencyKey == b.idempotencyKey && a.prevDigest == b.prevDigest && a.digest == b.digest)
    }

    /// The payload, parsed.
    public func data() throws -> JSONValue { try JSONValue.parse(dataText) }

    /// The payload decoded into a Codable type; errors name the coding path.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder().decode(T.self, from: data())
    }

    /// The payload decoded into a type with a fast path (`JSONFastDecodable`); the same
    /// value and the same errors as through `Codable`.
    public func decode<T: JSONFastDecodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder().decodeFast(T.self, fromText: dataText)
    }

    public func metadata() throws -> EventMetadata? { EventMetadata(json: try JSONValue.parse(metadataText)) }

    /// The fields the hash chain covers.
    public var chainFields: HashChain.Fields {
        HashChain.Fields(position: position, eventID: eventID, stream: stream, streamVersion: streamVersion, type: type,
                         occurredAt: occurredAt, recordedAt: recordedAt, correctsPosition: correctsPosition,
                         idempotencyKey: idempotencyKey, dataText: dataText, metadataText: metadataText)
    }

    /// An event with its chain hashes as arrays: 32 bytes each, as the log holds them.
    convenience init(position: Int64, eventID: UUID, stream: String, streamVersion: Int64, type: String, dataText: String,
                     metadataText: String, occurredAt: Timestamp, recordedAt: Timestamp, correctsPosition: Int64?,
                     idempotencyKey: String?, prevHash: [UInt8], hash: [UInt8]) {
        guard let prevDigest = ChainDigest(prevHash), let digest = ChainDigest(hash) else {
            preconditionFailure("an event's chain hashes are \(ChainDigest.byteCount) bytes each")
        }
        self.init(position: position, eventID: eventID, stream: stream, streamVersion: streamVersion, type: type, dataText: dataText,
                  metadataText: metadataText, occurredAt: occurredAt, recordedAt: recordedAt, correctsPosition: correctsPosition,
                  idempotencyKey: idempotencyKey, prevDigest: prevDigest, digest: digest)
    }

    private init(position: Int64, eventID: UUID, stream: String, streamVersion: Int64, type: String, dataText: String,
                 metadataText: String, occurredAt: Timestamp, recordedAt: Timestamp, correctsPosition: Int64?,
                 idempotencyKey: String?, prevDigest: ChainDigest, digest: ChainDigest) {
        self.position = position
        self.eventID = eventID
        self.stream = stream
        self.streamVersion = streamVersion
        self.type = type
        self.dataText = dataText
        self.metadataText = metadataText
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.correctsPosition = correctsPosition
        self.idempotencyKey = idempotencyKey
        self.prevDigest = prevDigest
        self.digest = digest
    }

    /// The events of rows of `eventColumns` sent in binary, in order. An event's stream and
    /// metadata are the previous event's own strings when its row repeats them (events
    /// appended together mostly do): a string fewer to allocate, and to free, per event read.
    static func events(_ result: PostgresResult) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        events.reserveCapacity(result.rowCount)
        for row in result.rows { events.append(try RecordedEvent(row: row, after: events.last)) }
        return events
    }

    /// An event from a row of `eventColumns` sent in binary; its stream and metadata shared
    /// with `previous` when they are the same.
    convenience init(row: PostgresRow, after previous: RecordedEvent?) throws {
        func timestamp(_ column: Int) throws -> Timestamp {
            guard let t = Timestamp(microseconds: try row.requireBinaryTimestampMicroseconds(column)) else {
                throw PostgresError(code: .unexpectedResult, message: "an event time is outside 1970-9999")
            }
            return t
        }
        // Every value is read before the event is built: nothing half-made to clean up
        // when one of them is refused.
        let id = try row.requireBinaryUUID(1)
        let position = try row.requireBinaryInt64(0), stream = try row.requireBinaryString(2, reusing: previous?.stream)
        let streamVersion = try row.requireBinaryInt64(3), type = try row.requireBinaryString(4)
        let dataText = try row.requireBinaryString(5), metadataText = try row.requireBinaryString(6, reusing: previous?.metadataText)
        let occurredAt = try timestamp(7), recordedAt = try timestamp(8)
        let correctsPosition = try row.binaryInt64(9), idempotencyKey = try row.binaryString(10)
        func digest(_ column: Int) throws -> ChainDigest {
            var digest: ChainDigest?
            try row.withRequiredBinaryBytes(column, count: ChainDigest.byteCount) { digest = ChainDigest($0) }
            return digest!
        }
        let prevDigest = try digest(11), digest = try digest(12)
        self.init(position: position,
                  eventID: UUID(uuid: id),
                  stream: stream, streamVersion: streamVersion, type: type, dataText: dataText, metadataText: metadataText,
                  occurredAt: occurredAt, recordedAt: recordedAt, correctsPosition: correctsPosition,
                  idempotencyKey: idempotencyKey, prevDigest: prevDigest, digest: digest)
    }
}
