import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import Postgres

extension AppendBenchmark {
    /// Events per second written into the log itself by one connection that does nothing
    /// but write: every row's position, version, event id, JSON text and hash made before
    /// the clock, then `perTransaction` rows per transaction, each taking the append lock
    /// and sending one binary `COPY` into `events`, as the appender does. The insert
    /// trigger checks them (lock, gapless, chain, versions) and fills the side tables, as
    /// for any append.
    ///
    /// No append path can beat it on this cluster: it is the appender with no client work,
    /// no round trip but the lock and the COPY, and no caller to answer. Beside the
    /// serialised writer's ceiling (the same rows, no trigger, no side table), it says how
    /// much of the distance to the raw baseline is the log's checks and how much is the
    /// append path's own (docs/benchmarks.md, "The log's own ceiling").
    static func measureLogCeiling(url: String, rows: [RawInsertBaseline.Row], perTransaction: Int) throws -> Double {
        let connection = try PostgresConnection(conninfo: url)
        let lock = "SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))"
        let head = try connection.query("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1")
        let headPosition = head.rows.isEmpty ? 0 : try head[0].requireInt64(0)
        var previous = head.rows.isEmpty ? HashChain.genesis : try head[0].requireBytes(1)
        // Partitions for every position the measurement writes, before the clock: the
        // appender makes one only when a batch nears the last, a few times per ten million.
        try connection.transaction { conn in
            try conn.query(lock)
            _ = try conn.query("SELECT events_ensure_partitions($1)", [headPosition + Int64(rows.count)])
        }
        let now = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))!
        var versions: [String: Int64] = [:]
        let planned = rows.enumerated().map { index, row in
            // Streams of their own, so that the appends measured next start theirs at 1.
            let stream = "bench-log-" + row.stream
            let version = versions[stream, default: 0] + 1
            versions[stream] = version
            let fields = HashChain.Fields(position: headPosition + Int64(index) + 1, eventID: SecureRandom.timeOrderedUUID(),
                                          stream: stream, streamVersion: version, type: row.type, occurredAt: now, recordedAt: now,
                                          correctsPosition: nil, idempotencyKey: nil, dataText: row.data.canonicalText,
                                          metadataText: row.metadata.json.canonicalText)
            let prevHash = previous
            previous = HashChain.hash(previous: prevHash, fields: fields)
            return (fields: fields, prevHash: prevHash, hash: previous)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for first in stride(from: 0, to: planned.count, by: perTransaction) {
            try connection.transaction { conn in
                try conn.query(lock)
                try conn.copyIn("COPY events (\(RawInsertBaseline.columns)) FROM STDIN WITH (FORMAT binary)") { stream in
                    for (fields, prevHash, hash) in planned[first..<min(first + perTransaction, planned.count)] {
                        stream.rows.eventRow(
                            position: fields.position, eventID: fields.eventID.uuid, stream: fields.stream,
                            version: fields.streamVersion, type: fields.type, dataText: fields.dataText,
                            metadataText: fields.metadataText, occurredAt: fields.occurredAt.microseconds,
                            recordedAt: fields.recordedAt.microseconds, idempotencyKey: nil, requestHash: nil,
                            prevHash: prevHash, hash: hash)
                        try stream.flushIfFull()
                    }
                }
            }
        }
        return Double(planned.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
