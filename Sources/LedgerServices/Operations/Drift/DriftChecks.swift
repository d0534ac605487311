import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections

/// The rows of `projection_drift_checks` and `projection_drift_findings` (migration 0020),
/// which only this type names.
public struct DriftChecks: Sendable {
    let connections: PostgresPool

    /// Checks are kept this long (a check every few minutes: some ten thousand rows).
    public static let retentionDays: Int64 = 30
    /// What is kept of an account's differences: the first ones say what is wrong, and a
    /// table changed wholesale must not write a row per entry every few minutes.
    public static let findingsPerAccount = 20

    public init(connections: PostgresPool) { self.connections = connections }

    private static let columns = """
        check_id::text, projection, position, started_us, finished_us, array_to_json(accounts)::text, array_to_json(drifted)::text,
        array_to_json(skipped)::text, events, failure_code, failure
        """

    /// Records a finished check and its findings (each account's first `findingsPerAccount`
    /// and, past them, one saying how many more); checks past the retention are forgotten on
    /// the way.
    public func record(_ check: DriftCheckRecord, now: Timestamp) throws {
        var kept: [DriftCheckRecord.Finding] = []
        var perAccount: [String: Int] = [:]
        for finding in check.findings { perAccount[finding.account, default: 0] += 1 }
        var written: [String: Int] = [:]
        for finding in check.findings {
            let n = written[finding.account, default: 0]
            written[finding.account] = n + 1
            if n < Self.findingsPerAccount {
                kept.append(finding)
            } else if n == Self.findingsPerAccount {
                let more = perAccount[finding.account, default: 0] - Self.findingsPerAccount
                kept.append(.init(account: finding.account, figure: "…", live: "\(more) more figures differ", refolded: "not kept"))
            }
        }
        try connections.withConnection { conn in
            try conn.transaction { tx in
                _ = try tx.query("DELETE FROM projection_drift_checks WHERE started_us < $1",
                                 [now.microseconds - Self.retentionDays * 86_400_000_000])
                _ = try tx.query("""
                    INSERT INTO projection_drift_checks (check_id, projection, position, started_us, finished_us, accounts, drifted, skipped,
                                                         events, failure_code, failure)
                    VALUES ($1::uuid, $2, $3, $4, $5, $6::text[], $7::text[], $8::text[], $9, $10, $11)
                    """, [check.id.uuidString, check.projection, check.position, check.started.microseconds,
                          (check.finished ?? now).microseconds, PostgresTextArray(check.accounts), PostgresTextArray(check.drifted),
                          PostgresTextArray(check.skipped.map { String($0.prefix(1_000)) }), Int64(check.events), check.failureCode,
                          check.failure.map { String($0.prefix(2_000)) }])
                guard !kept.isEmpty else { return }
                _ = try tx.query("""
                    INSERT INTO projection_drift_findings (check_id, ordinal, account, figure, live, refolded)
                    SELECT $1::uuid, f.ordinality, f.account, f.figure, f.live, f.refolded
                    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS f (account, figure, live, refolded, ordinality)
                    """, [check.id.uuidString, PostgresTextArray(kept.map(\.account)), PostgresTextArray(kept.map { String($0.figure.prefix(400)) }),
                          PostgresTextArray(kept.map { String($0.live.prefix(1_000)) }),
                          PostgresTextArray(kept.map { String($0.refolded.prefix(1_000)) })])
            }
        }
    }

    /// The accounts the projection's last completed check found drifted: the next check
    /// compares them again, whatever else it samples, until they are found clean.
    public func lastDrifted(projection: String) throws -> [String] {
        try connections.read { conn in
            try conn.query("""
                SELECT array_to_json(drifted)::text FROM projection_drift_checks
                WHERE projection = $1 AND failure_code IS NULL
                ORDER BY seq DESC LIMIT 1
                """, [projection]).rows.first.map { try Self.textArray($0, 0) } ?? []
        }
    }

    /// The projections the drift check covers (those that can fold an account apart).
    public static var projections: [String] { AllProjections.all.compactMap { ($0 as? any AccountSampling)?.name } }

    /// Per projection of `projections` that was checked: its last check, and its last
    /// completed one (the same when the last completed), each with its findings; empty
    /// before any check, or before migration 0020. A few indexed reads: the API's
    /// readiness check makes them every second.
    public func latest(projections: [String] = DriftChecks.projections) throws -> [(last: DriftCheckRecord, lastCompleted: DriftCheckRecord?)] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('projection_drift_checks') IS NOT NULL")[0].bool(0) == true else { return [] }
            var out: [(last: DriftCheckRecord, lastCompleted: DriftCheckRecord?)] = []
            for projection in projections {
                guard let last = try conn.query("""
                    SELECT \(Self.columns) FROM projection_drift_checks WHERE projection = $1 ORDER BY seq DESC LIMIT 1
                    """, [projection]).rows.first.map(Self.check) else { continue }
                let completed = last.completed ? last : try conn.query("""
                    SELECT \(Self.columns) FROM projection_drift_checks
                    WHERE projection = $1 AND failure_code IS NULL ORDER BY seq DESC LIMIT 1
                    """, [projection]).rows.first.map(Self.check)
                let shown = try withFindings(last, on: conn)
                out.append((shown, try completed.map { $0.id == last.id ? shown : try withFindings($0, on: conn) }))
            }
            return out
        }
    }

    /// The projection's last `limit` checks, newest first, without their findings.
    public func history(projection: String, limit: Int = 20) throws -> [DriftCheckRecord] {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.columns) FROM projection_drift_checks WHERE projection = $1 ORDER BY seq DESC LIMIT $2
                """, [projection, Int64(limit)]).rows.map(Self.check)
        }
    }

    private func withFindings(_ check: DriftCheckRecord, on conn: PostgresConnection) throws -> DriftCheckRecord {
        guard !check.drifted.isEmpty else { return check }
        var out = check
        out.findings = try conn.query("""
            SELECT account, figure, live, refolded FROM projection_drift_findings WHERE check_id = $1::uuid ORDER BY ordinal
            """, [check.id.uuidString]).rows.map {
            DriftCheckRecord.Finding(account: try $0.requireString(0), figure: try $0.requireString(1), live: try $0.requireString(2),
                                     refolded: try $0.requireString(3))
        }
        return out
    }

    static func check(_ row: PostgresRow) throws -> DriftCheckRecord {
        DriftCheckRecord(id: UUID(uuidString: try row.requireString(0)) ?? UUID(), projection: try row.requireString(1),
                         position: row.int64(2), started: Timestamp(microseconds: try row.requireInt64(3)) ?? .minimum,
                         finished: row.int64(4).flatMap { Timestamp(microseconds: $0) }, accounts: try textArray(row, 5),
                         drifted: try textArray(row, 6), skipped: try textArray(row, 7), events: Int(try row.requireInt64(8)),
                         findings: [], failureCode: row.string(9), failure: row.string(10))
    }

    /// A `text[]` column, read as `array_to_json(…)::text`.
    static func textArray(_ row: PostgresRow, _ column: Int) throws -> [String] {
        try JSONValue.parse(try row.requireString(column)).arrayValue?.compactMap(\.stringValue) ?? []
    }
}
