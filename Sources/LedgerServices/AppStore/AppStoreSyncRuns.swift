import Foundation
import LedgerDomain
import Postgres

/// The rows of `appstore_sync_runs` (migration 0015), which only this type names: the
/// notification history sync's progress, written after each page so that a run cut off
/// (kill -9, a lost database) resumes from the page it had reached.
public struct AppStoreSyncRuns: Sendable {
    let connections: PostgresPool

    /// Finished runs are kept as long as Apple keeps the history they read.
    public static let retentionDays: Int64 = 180

    public init(connections: PostgresPool) { self.connections = connections }

    private static let columns = """
        sync_id::text, bundle_id, environment, window_start_us, window_end_us, started_us, updated_us, finished_us,
        pagination_token, pages, seen, recovered, failure_code, failure
        """

    /// Starts a run over `[start, end)`; finished runs past the retention are forgotten on the way.
    public func begin(bundleID: String, environment: String, window: (start: Timestamp, end: Timestamp), now: Timestamp) throws -> AppStoreSyncRun {
        let run = AppStoreSyncRun(id: UUID(), bundleID: bundleID, environment: environment, windowStart: window.start, windowEnd: window.end,
                                  started: now, updated: now, finished: nil, paginationToken: nil, pages: 0, seen: 0, recovered: 0,
                                  failureCode: nil, failure: nil)
        try connections.withConnection { conn in
            _ = try conn.query("""
                INSERT INTO appstore_sync_runs (sync_id, bundle_id, environment, window_start_us, window_end_us, started_us, updated_us)
                VALUES ($1::uuid, $2, $3, $4, $5, $6, $6)
                """, [run.id.uuidString, bundleID, environment, window.start.microseconds, window.end.microseconds, now.microseconds])
            _ = try conn.query("DELETE FROM appstore_sync_runs WHERE finished_us < $1",
                               [now.microseconds - Self.retentionDays * 86_400_000_000])
        }
        return run
    }

    /// The app's run that has not finished (at most one is open at a time), if any.
    public func open(bundleID: String, environment: String) throws -> AppStoreSyncRun? {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM appstore_sync_runs
                WHERE bundle_id = $1 AND environment = $2 AND finished_us IS NULL ORDER BY started_us DESC LIMIT 1
                """, [bundleID, environment]).rows.first.map(Self.run)
        }
    }

    /// The app's last run that covered its window.
    public func lastSucceeded(bundleID: String, environment: String) throws -> AppStoreSyncRun? {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM appstore_sync_runs
                WHERE bundle_id = $1 AND environment = $2 AND finished_us IS NOT NULL AND failure_code IS NULL
                ORDER BY started_us DESC LIMIT 1
                """, [bundleID, environment]).rows.first.map(Self.run)
        }
    }

    /// The app's last run, whatever its state.
    public func last(bundleID: String, environment: String) throws -> AppStoreSyncRun? {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM appstore_sync_runs
                WHERE bundle_id = $1 AND environment = $2 ORDER BY started_us DESC LIMIT 1
                """, [bundleID, environment]).rows.first.map(Self.run)
        }
    }

    /// A page recorded: where to go on from, and what it found.
    public func advance(_ id: UUID, paginationToken: String?, seen: Int, recovered: Int, now: Timestamp) throws {
        _ = try connections.withConnection { conn in
            try conn.query("""
                UPDATE appstore_sync_runs SET pagination_token = $2, pages = pages + 1, seen = seen + $3, recovered = recovered + $4,
                       updated_us = $5, failure_code = NULL, failure = NULL
                WHERE sync_id = $1::uuid AND finished_us IS NULL
                """, [id.uuidString, paginationToken, Int64(seen), Int64(recovered), now.microseconds])
        }
    }

    /// The run stopped on an error: `final` ends it (its window will be asked again by the
    /// next run), otherwise the next look resumes it from its last page.
    public func stop(_ id: UUID, code: String, failure: String, final: Bool, now: Timestamp) throws {
        _ = try connections.withConnection { conn in
            try conn.query("""
                UPDATE appstore_sync_runs SET failure_code = $2, failure = $3, updated_us = $4::bigint,
                       finished_us = CASE WHEN $5::boolean THEN $4::bigint END
                WHERE sync_id = $1::uuid AND finished_us IS NULL
                """, [id.uuidString, code, String(failure.prefix(2000)), now.microseconds, final])
        }
    }

    /// The run covered its window.
    public func finish(_ id: UUID, now: Timestamp) throws {
        _ = try connections.withConnection { conn in
            try conn.query("""
                UPDATE appstore_sync_runs SET finished_us = $2, updated_us = $2, pagination_token = NULL, failure_code = NULL, failure = NULL
                WHERE sync_id = $1::uuid AND finished_us IS NULL
                """, [id.uuidString, now.microseconds])
        }
    }

    /// The last runs, newest first, of one app or all.
    public func latest(bundleID: String? = nil, limit: Int = 20) throws -> [AppStoreSyncRun] {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM appstore_sync_runs WHERE $1::text IS NULL OR bundle_id = $1
                ORDER BY started_us DESC LIMIT $2
                """, [bundleID, Int64(limit)]).rows.map(Self.run)
        }
    }

    /// Per app and environment: the last run, the last that succeeded, and every
    /// notification recovered in the runs kept.
    public struct Summary: Sendable, Hashable {
        public var bundleID: String
        public var environment: String
        public var last: AppStoreSyncRun
        public var lastSucceeded: AppStoreSyncRun?
        public var recovered: Int64
        public var runs: Int64
        /// The start of the oldest run kept.
        public var firstStarted: Timestamp
    }

    public func summaries() throws -> [Summary] {
        try connections.read { conn in
            let totals = try conn.query("""
                SELECT bundle_id, environment, sum(recovered)::bigint, count(*)::bigint, min(started_us) FROM appstore_sync_runs
                GROUP BY bundle_id, environment ORDER BY bundle_id, environment
                """)
            return try totals.rows.compactMap { row -> Summary? in
                let bundle = try row.requireString(0), environment = try row.requireString(1)
                let latest = try conn.query("""
                    (SELECT \(Self.columns) FROM appstore_sync_runs WHERE bundle_id = $1 AND environment = $2
                     ORDER BY started_us DESC LIMIT 1)
                    UNION ALL
                    (SELECT \(Self.columns) FROM appstore_sync_runs WHERE bundle_id = $1 AND environment = $2
                     AND finished_us IS NOT NULL AND failure_code IS NULL ORDER BY started_us DESC LIMIT 1)
                    """, [bundle, environment]).rows.map(Self.run)
                guard let last = latest.first else { return nil }
                return Summary(bundleID: bundle, environment: environment, last: last, lastSucceeded: latest.dropFirst().first,
                               recovered: row.int64(2) ?? 0, runs: row.int64(3) ?? 0,
                               firstStarted: Timestamp(microseconds: try row.requireInt64(4)) ?? last.started)
            }
        }
    }

    private static func run(_ row: PostgresRow) throws -> AppStoreSyncRun {
        func time(_ column: Int) throws -> Timestamp {
            guard let t = Timestamp(microseconds: try row.requireInt64(column)) else { throw PostgresError(code: .unexpectedResult, message: "appstore_sync_runs: a time out of range") }
            return t
        }
        return AppStoreSyncRun(
            id: UUID(uuidString: try row.requireString(0)) ?? UUID(), bundleID: try row.requireString(1), environment: try row.requireString(2),
            windowStart: try time(3), windowEnd: try time(4), started: try time(5), updated: try time(6),
            finished: try row.isNull(7) ? nil : time(7), paginationToken: row.string(8), pages: row.int(9) ?? 0, seen: row.int(10) ?? 0,
            recovered: row.int(11) ?? 0, failureCode: row.string(12), failure: row.string(13))
    }
}
