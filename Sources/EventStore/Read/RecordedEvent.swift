import Foundation
import LedgerDomain
import LedgerJSON

/// An event as the log holds it.
public struct RecordedEvent: Sendable, Equatable {
    public var position: Int64
    public var eventID: UUID
    public var stream: String
    public var streamVersion: Int64
    public var type: String
    /// `data::text` exactly as PostgreSQL printed it (the hash chain's input).
    public var dataText: String
    /// `metadata::text` exactly as PostgreSQL printed it.
    public var metadataText: String
    public var occurredAt: Timestamp
    public var recordedAt: Timestamp
    public var correctsPosition: Int64?
    public var idempotencyKey: String?
    public var prevHash: [UInt8]
    public var hash: [UInt8]

    /// The payload, parsed.
    public func data() throws -> JSONValue { try JSONValue.parse(dataText) }

    /// The payload decoded into a Codable type; errors name the coding path.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder().decode(T.self, from: data())
    }

    /// The payload decoded into a type with a fast path (`JSONFastDecodable`); the same
    /// value and the same errors as through `Codable`.
    public func decode<T: JSONFastDecodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder().decodeFast(T.self, from: data())
    }

    public func metadata() throws -> EventMetadata? { EventMetadata(json: try JSONValue.parse(metadataText)) }

    /// The fields the hash chain covers.
    public var chainFields: HashChain.Fields {
        HashChain.Fields(position: position, eventID: eventID, stream: stream, streamVersion: streamVersion, type: type,
                         occurredAt: occurredAt, recordedAt: recordedAt, correctsPosition: correctsPosition,
                         idempotencyKey: idempotencyKey, dataText: dataText, metadataText: metadataText)
    }
}
