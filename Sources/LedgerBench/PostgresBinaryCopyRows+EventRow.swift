import Foundation
import LedgerCLI
import Postgres

extension PostgresBinaryCopyRows {
    /// One row of `events` (or of the baseline's table, which has its columns), in
    /// `RawInsertBaseline.columns` order, as the benchmarks' single-backend writers copy it.
    /// No correction: `corrects_position` is always null here.
    mutating func eventRow(position: Int64, eventID: uuid_t, stream: String, version: Int64, type: String,
                           dataText: String, metadataText: String, occurredAt: Int64, recordedAt: Int64,
                           idempotencyKey: String?, requestHash: [UInt8]?, prevHash: [UInt8], hash: [UInt8]) {
        startRow(fields: 14)
        int8(position)
        uuid(eventID)
        text(stream)
        int8(version)
        text(type)
        jsonb(dataText)
        jsonb(metadataText)
        timestamptz(unixMicroseconds: occurredAt)
        timestamptz(unixMicroseconds: recordedAt)
        null()
        text(idempotencyKey)
        bytea(requestHash)
        bytea(prevHash)
        bytea(hash)
    }
}
