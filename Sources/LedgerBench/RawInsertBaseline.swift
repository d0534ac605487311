import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import Postgres
import Synchronization
import Threads

/// The ceiling the append path is measured against: the same rows, inserted by plain
/// multi-row INSERTs of 500 rows through libpq into a scratch table with the columns and
/// indexes of `events` — no lock, no hash chain, no version check, no trigger.
enum RawInsertBaseline {
    static let rowsPerInsert = 500
    static let columns = "position, event_id, stream, stream_version, type, data, metadata, occurred_at, recorded_at, corrects_position, idempotency_key, request_hash, prev_hash, hash"

    /// One row as the append path would write it, minus what only the append path computes
    /// (position, version, chain): those are filled in here, before the clock starts.
    struct Row: Sendable {
        var stream: String
        var type: String
        var data: JSONValue
        var metadata: EventMetadata
        /// Business time; the recording time when nil, as in the log.
        var occurredAt: Timestamp?
        /// Rows that carry one also carry a request hash, as the log's check demands, so
        /// that the partial unique index on keys is maintained exactly as for real appends.
        var idempotencyKey: String?
    }

    /// The rows of `ledger-bench append`: `payloads[i]` on stream `streams[i]`.
    static func rows(payloads: [JSONValue], streams: [Int], run: String) -> [Row] {
        let metadata = EventMetadata(actor: Actor(.system, "bench"))
        return payloads.enumerated().map { index, data in
            Row(stream: "bench-raw-\(run)-\(streams[index])", type: "bench.usage_recorded", data: data, metadata: metadata)
        }
    }

    /// Events per second from `connections` concurrent connections.
    static func measure(url: String, rows: [Row], connections: Int) throws -> Double {
        let setup = try createTable(url: url)
        defer { _ = try? setup.query("DROP TABLE IF EXISTS bench_raw_events") }
        let texts = textRows(rows)
        let chunks = stride(from: 0, to: texts.count, by: rowsPerInsert).map { texts[$0..<min($0 + rowsPerInsert, texts.count)] }
        let next = Atomic<Int>(0)
        let failure = Mutex<String?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        ThreadGroup.run(connections, name: "bench-raw") { _ in
            do {
                let connection = try PostgresConnection(conninfo: url)
                while true {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < chunks.count else { return }
                    try insert(chunks[i], on: connection)
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let message = failure.withLock({ $0 }) { throw BenchmarkError(message: "raw insert failed: \(message)") }
        return Double(texts.count) / seconds
    }

    /// `bench_raw_events`, made anew: the columns and CHECK constraints of `events`, no
    /// trigger, and the indexes the log had in one table before it was partitioned. Since
    /// migration 0005 it keeps three of its uniqueness rules in side tables, and the
    /// baseline stores the same rows under the same guarantees as before, so that ratios
    /// compare across the change.
    static func createTable(url: String) throws -> PostgresConnection {
        let setup = try PostgresConnection(conninfo: url)
        try setup.query("DROP TABLE IF EXISTS bench_raw_events")
        try setup.query("CREATE TABLE bench_raw_events (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)")
        for index in ["PRIMARY KEY (position)", "UNIQUE (event_id)", "UNIQUE (stream, stream_version)"] {
            try setup.query("ALTER TABLE bench_raw_events ADD \(index)")
        }
        try setup.query("CREATE UNIQUE INDEX ON bench_raw_events (idempotency_key) WHERE idempotency_key IS NOT NULL")
        try setup.query("CREATE INDEX ON bench_raw_events (corrects_position) WHERE corrects_position IS NOT NULL")
        try setup.query("CREATE INDEX ON bench_raw_events (position) WHERE type = 'projection.event_set_aside'")
        return setup
    }

    /// Each row's 14 columns as text, in `columns` order, with what only the append path
    /// computes (position, version, chain) filled in here, before the clock starts.
    static func textRows(_ rows: [Row]) -> [[String?]] {
        let hash = PostgresBytes(SHA256.hash(Array("bench".utf8))).postgresText!
        let timestamp = ISO8601DateFormatter().string(from: Date())
        var versions: [String: Int64] = [:]
        return rows.enumerated().map { index, row in
            let version = versions[row.stream, default: 0] + 1
            versions[row.stream] = version
            return [String(index + 1), SecureRandom.timeOrderedUUID().uuidString.lowercased(), row.stream, String(version), row.type,
                    row.data.canonicalText, row.metadata.json.canonicalText, row.occurredAt?.iso8601 ?? timestamp, timestamp,
                    nil, row.idempotencyKey, row.idempotencyKey == nil ? nil : hash, hash, hash]
        }
    }

    /// The best of 1, 2 and 4 connections, printing each; `beforeEach` runs before each
    /// measurement (`ledger-bench append` brings the cluster to rest there).
    static func best(url: String, rows: [Row], beforeEach: () -> Void = {}) throws -> Double {
        var best = 0.0
        for connections in [1, 2, 4] {
            beforeEach()
            let rate = try measure(url: url, rows: rows, connections: connections)
            BenchOutput.line("raw insert, \(connections) connection\(connections == 1 ? "" : "s"): \(Int(rate)) events/s")
            best = max(best, rate)
        }
        return best
    }

    private static func insert(_ rows: ArraySlice<[String?]>, on connection: PostgresConnection) throws {
        var sql = "INSERT INTO bench_raw_events (\(columns)) VALUES "
        var params: [String?] = []
        params.reserveCapacity(rows.count * 14)
        for (r, row) in rows.enumerated() {
            sql += r == 0 ? "(" : ",("
            for c in 0..<14 { sql += (c == 0 ? "$" : ",$") + String(r * 14 + c + 1) }
            sql += ")"
            params.append(contentsOf: row)
        }
        try connection.query(sql, texts: params)
    }
}
