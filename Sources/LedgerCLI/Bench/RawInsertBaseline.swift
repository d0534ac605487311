import Crypto
import Dispatch
import EventStore
import Foundation
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

    /// Events per second from `connections` concurrent connections.
    static func measure(url: String, payloads: [JSONValue], streams: [Int], run: String, connections: Int) throws -> Double {
        let setup = try PostgresConnection(conninfo: url)
        try setup.query("DROP TABLE IF EXISTS bench_raw_events")
        // INCLUDING ALL copies the indexes (and CHECK constraints) but not the triggers.
        try setup.query("CREATE TABLE bench_raw_events (LIKE events INCLUDING ALL)")
        defer { _ = try? setup.query("DROP TABLE IF EXISTS bench_raw_events") }

        let metadata = EventMetadata(actor: Actor(.system, "bench")).json.canonicalText
        let dataTexts = payloads.map(\.canonicalText)
        let hash = PostgresBytes(SHA256.hash(Array("bench".utf8))).postgresText!
        let now = Date()
        let timestamp = ISO8601DateFormatter().string(from: now)
        var versions: [Int: Int64] = [:]
        let rows: [[String?]] = dataTexts.enumerated().map { index, data in
            let s = streams[index]
            let version = versions[s, default: 0] + 1
            versions[s] = version
            return [String(index + 1), UUID().uuidString.lowercased(), "bench-raw-\(run)-\(s)", String(version),
                    "bench.usage_recorded", data, metadata, timestamp, timestamp, nil, nil, nil, hash, hash]
        }
        let chunks = stride(from: 0, to: rows.count, by: rowsPerInsert).map { rows[$0..<min($0 + rowsPerInsert, rows.count)] }
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
        return Double(rows.count) / seconds
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
