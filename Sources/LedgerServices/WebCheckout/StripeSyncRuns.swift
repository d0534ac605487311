import Foundation
import LedgerDomain
import Postgres

/// The rows of `stripe_sync_runs` (migration 0019), which only this type names.
public struct StripeSyncRuns: Sendable {
    let connections: PostgresPool

    /// Finished runs are kept as long as Stripe keeps the events they read, and more.
    public static let retentionDays: Int64 = 90

    public init(connections: PostgresPool) { self.connections = connections }

    private static let columns = """
        run_id::text, app_id, since_us, started_us, finished_us, dry_run, seen, recovered, refused, failure_code, failure
        """

    /// Starts a run; finished runs past the retention are forgotten on the way.
    public func begin(app: String, since: Timestamp, dryRun: Bool, now: Timestamp) throws -> StripeSyncRun {
        let run = StripeSyncRun(id: UUID(), appID: app, since: since, started: now, finished: nil, dryRun: dryRun, seen: 0, recovered: 0,
                                refused: 0, failureCode: nil, failure: nil)
        try connections.withConnection { conn in
            _ = try conn.query("""
                INSERT INTO stripe_sync_runs (run_id, app_id, since_us, started_us, dry_run) VALUES ($1::uuid, $2, $3, $4, $5)
                """, [run.id.uuidString, app, since.microseconds, now.microseconds, dryRun])
            _ = try conn.query("DELETE FROM stripe_sync_runs WHERE finished_us < $1", [now.microseconds - Self.retentionDays * 86_400_000_000])
        }
        return run
    }

    /// The run ended: what it found, and the error it stopped on, if any.
    public func finish(_ run: StripeSyncRun, now: Timestamp) throws {
        _ = try connections.withConnection { conn in
            try conn.query("""
                UPDATE stripe_sync_runs SET finished_us = $2, seen = $3, recovered = $4, refused = $5, failure_code = $6, failure = $7
                WHERE run_id = $1::uuid
                """, [run.id.uuidString, now.microseconds, Int64(run.seen), Int64(run.recovered), Int64(run.refused), run.failureCode,
                      run.failure.map { String($0.prefix(2_000)) }])
        }
    }

    /// The app's last run that was not dry and finished without an error.
    public func lastSucceeded(app: String) throws -> StripeSyncRun? {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM stripe_sync_runs
                WHERE app_id = $1 AND finished_us IS NOT NULL AND failure_code IS NULL AND NOT dry_run
                ORDER BY started_us DESC LIMIT 1
                """, [app]).rows.first.map(Self.run)
        }
    }

    /// The app's last `limit` runs, newest first, whatever their end (dry, failed, in flight).
    public func latest(app: String, limit: Int = 20) throws -> [StripeSyncRun] {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM stripe_sync_runs WHERE app_id = $1 ORDER BY started_us DESC LIMIT $2
                """, [app, Int64(limit)]).rows.map(Self.run)
        }
    }

    /// Per app: its last run, its last success, the events recovered by the runs kept.
    public func summaries() throws -> [(app: String, last: StripeSyncRun, lastSucceeded: StripeSyncRun?, recovered: Int64, firstStarted: Timestamp)] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('stripe_sync_runs') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try conn.query("""
                SELECT DISTINCT ON (r.app_id) \(Self.columns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")),
                    (SELECT coalesce(sum(recovered), 0) FROM stripe_sync_runs x WHERE x.app_id = r.app_id AND NOT x.dry_run),
                    (SELECT min(started_us) FROM stripe_sync_runs x WHERE x.app_id = r.app_id),
                    (SELECT run_id::text FROM stripe_sync_runs x WHERE x.app_id = r.app_id AND x.finished_us IS NOT NULL
                        AND x.failure_code IS NULL AND NOT x.dry_run ORDER BY started_us DESC LIMIT 1)
                FROM stripe_sync_runs r ORDER BY r.app_id, r.started_us DESC
                """).rows.map { row in
                let last = try Self.run(row)
                let succeededID = row.string(13)
                let succeeded = try succeededID.flatMap { id in
                    id == last.id.uuidString.lowercased() ? last
                        : try conn.query("SELECT \(Self.columns) FROM stripe_sync_runs WHERE run_id = $1::uuid", [id]).rows.first.map(Self.run)
                }
                return (last.appID, last, succeeded, try row.requireInt64(11), Timestamp(microseconds: try row.requireInt64(12)) ?? last.started)
            }
        }
    }

    static func run(_ row: PostgresRow) throws -> StripeSyncRun {
        StripeSyncRun(id: UUID(uuidString: try row.requireString(0)) ?? UUID(), appID: try row.requireString(1),
                      since: Timestamp(microseconds: try row.requireInt64(2)) ?? .minimum,
                      started: Timestamp(microseconds: try row.requireInt64(3)) ?? .minimum,
                      finished: row.int64(4).flatMap { Timestamp(microseconds: $0) }, dryRun: row.bool(5) ?? false,
                      seen: Int(try row.requireInt64(6)), recovered: Int(try row.requireInt64(7)), refused: Int(try row.requireInt64(8)),
                      failureCode: row.string(9), failure: row.string(10))
    }
}
