import Foundation
import LedgerDomain
import Postgres

/// Where the drift check stands, per projection: what the operations `/readyz`, `/metrics`
/// and the console show, judged in one place. Drift is a warning naming each account,
/// never unreadiness: the API serves, and only an operator can tell a bug from a hand
/// that changed a row (docs/operations.md, "Drift").
public struct DriftStatus: Sendable, Encodable {
    public struct Projection: Sendable, Encodable {
        public var projection: String
        /// The last check, whatever its end.
        public var last: DriftCheckRecord
        /// The last check that compared what it chose: what drift is judged on (a check
        /// skipped while a replay runs does not make the drift found before it vanish).
        public var lastCompleted: DriftCheckRecord?
        /// The last check is older than twice LEDGER_DRIFT_CHECK_EVERY.
        public var overdue: Bool

        enum CodingKeys: String, CodingKey { case projection, last, lastCompleted = "last_completed", overdue }

        /// The accounts found drifted.
        public var drifted: [String] { lastCompleted?.drifted ?? [] }
    }

    public var projections: [Projection]
    /// LEDGER_DRIFT_CHECK_EVERY, seconds (0: the API was told the check is off).
    public var every: Double

    /// Accounts found drifted, over every projection.
    public var driftedAccounts: Int { projections.reduce(0) { $0 + $1.drifted.count } }

    /// Accounts named one warning each, up to this many per projection; one more says how
    /// many are left.
    public static let warnedAccounts = 10

    /// Each drifted account, in words with what differs first; a check that failed (not
    /// for a benign reason) and an overdue one, too.
    public func warnings(now: Timestamp) -> [String] {
        var out: [String] = []
        for p in projections {
            if let check = p.lastCompleted, !check.drifted.isEmpty {
                for account in check.drifted.prefix(Self.warnedAccounts) {
                    let findings = check.findings(of: account)
                    let first = findings.first.map { "\($0.figure) is \($0.live) in the live rows and \($0.refolded) folded again from the log" }
                        ?? "its rows differ from the log's fold"
                    let more = findings.count > 1 ? " (and \(findings.count - 1) more figure\(findings.count == 2 ? "" : "s"))" : ""
                    out.append("projection \(p.projection) differs from the log for account \(account): \(first)\(more), found by the drift check at position \(check.position ?? 0) (\(check.started.iso8601)); see the console's projections page, and rebuild it (`ledger replay --projection \(p.projection)`) once the cause is known")
                }
                if check.drifted.count > Self.warnedAccounts {
                    out.append("projection \(p.projection) differs from the log for \(check.drifted.count - Self.warnedAccounts) more accounts: see the console's projections page")
                }
            }
            if let code = p.last.failureCode, !DriftCheckRecord.benignFailures.contains(code) {
                out.append("the last drift check of projection \(p.projection) stopped on \(code): \(p.last.failure ?? "")")
            }
            if p.overdue, let finished = p.last.finished {
                out.append("the drift check of projection \(p.projection) is overdue: it last ran \(AppStoreSyncStatus.duration(now.seconds - finished.seconds)) ago, and it runs every \(AppStoreSyncStatus.duration(every))")
            }
        }
        return out
    }

    public static func read(connections: PostgresPool, every: Double, now: Timestamp) throws -> DriftStatus {
        let projections = try DriftChecks(connections: connections).latest().map { latest in
            let since = now.seconds - (latest.last.finished ?? latest.last.started).seconds
            return Projection(projection: latest.last.projection, last: latest.last, lastCompleted: latest.lastCompleted,
                              overdue: every > 0 && since > 2 * every + 60)
        }
        return DriftStatus(projections: projections, every: every)
    }
}
