import Crypto
import Dispatch
import Foundation
import LedgerCLI
import LedgerDomain
import Postgres

extension RawInsertBaseline {
    /// Events per second written by one connection as the append path writes them (binary
    /// `COPY` of `perTransaction` rows, one transaction each) into `bench_raw_events`,
    /// without its lock, chain, trigger or side tables. The rows' JSON text and ids are made
    /// before the clock, as they are for the append path's measurement that gives the
    /// ratio; their binary encoding inside it, streamed while the server inserts, as the
    /// appender's is.
    ///
    /// The log serialises appenders on one lock (docs/event-log.md), so the log is written by one server
    /// backend at a time; this is the fastest such a writer could go on this cluster, the
    /// ceiling of any append path under that contract. The baseline's best uses two or
    /// four backends at once.
    static func measureOneBackend(url: String, rows: [Row], perTransaction: Int) throws -> Double {
        let connection = try createTable(url: url)
        defer { _ = try? connection.query("DROP TABLE IF EXISTS bench_raw_events") }
        let hash = SHA256.hash(Array("bench".utf8))
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let texts = rows.map { (id: SecureRandom.timeOrderedUUID().uuid, data: $0.data.canonicalText, metadata: $0.metadata.json.canonicalText) }
        var versions: [String: Int64] = [:]
        let start = DispatchTime.now().uptimeNanoseconds
        for first in stride(from: 0, to: rows.count, by: perTransaction) {
            try connection.transaction { conn in
                try conn.copyIn("COPY bench_raw_events (\(columns)) FROM STDIN WITH (FORMAT binary)") { stream in
                    for index in first..<min(first + perTransaction, rows.count) {
                        let row = rows[index]
                        let version = versions[row.stream, default: 0] + 1
                        versions[row.stream] = version
                        stream.rows.eventRow(
                            position: Int64(index + 1), eventID: texts[index].id, stream: row.stream, version: version, type: row.type,
                            dataText: texts[index].data, metadataText: texts[index].metadata,
                            occurredAt: row.occurredAt?.microseconds ?? now, recordedAt: now, idempotencyKey: row.idempotencyKey,
                            requestHash: row.idempotencyKey == nil ? nil : hash, prevHash: hash, hash: hash)
                        try stream.flushIfFull()
                    }
                }
            }
        }
        return Double(rows.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
