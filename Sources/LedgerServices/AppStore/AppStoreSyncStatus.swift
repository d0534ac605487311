import Foundation
import LedgerDomain
import Postgres

/// Where the notification history sync stands, per app and environment: what
/// `ledger appstore sync status`, the operations `/readyz` and `/metrics` show, judged in
/// one place. A sync is overdue when its last success (or, before any, its first start)
/// is older than twice LEDGER_APPSTORE_SYNC_EVERY: a warning, never unreadiness, since
/// the API serves without it.
public struct AppStoreSyncStatus: Sendable, Encodable {
    public struct App: Sendable, Encodable {
        public var bundleID: String
        public var environment: String
        public var last: AppStoreSyncRun
        public var lastSucceeded: AppStoreSyncRun?
        /// Notifications recovered by the runs kept.
        public var recovered: Int64
        public var runs: Int64
        public var overdue: Bool

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id", environment, last, lastSucceeded = "last_succeeded", recovered, runs, overdue
        }

        /// Seconds since the last success at `now`, nil before any.
        public func sinceSuccess(now: Timestamp) -> Double? {
            lastSucceeded.flatMap { $0.finished }.map { now.seconds - $0.seconds }
        }
    }

    public var apps: [App]
    /// LEDGER_APPSTORE_SYNC_EVERY, seconds.
    public var every: Double

    /// Why each overdue app is, in words, naming no secret (the operations listener's `/readyz`).
    public func warnings(now: Timestamp) -> [String] {
        apps.filter(\.overdue).map { app in
            let name = "\(app.bundleID) (\(app.environment))"
            let since = app.sinceSuccess(now: now).map { "its last success was \(Self.duration($0)) ago" } ?? "it never succeeded"
            return "the App Store notification history sync of \(name) is overdue: \(since), and it runs every \(Self.duration(every))"
                + (app.last.failureCode.map { "; the last run stopped on \($0)" } ?? "")
        }
    }

    public static func read(connections: PostgresPool, every: Double, now: Timestamp) throws -> AppStoreSyncStatus {
        let apps = try AppStoreSyncRuns(connections: connections).summaries().map { s in
            // Before any success, the oldest run's start: a sync that never succeeds is
            // overdue once it has had two chances.
            let since = now.seconds - (s.lastSucceeded?.finished ?? s.firstStarted).seconds
            return App(bundleID: s.bundleID, environment: s.environment, last: s.last, lastSucceeded: s.lastSucceeded,
                       recovered: s.recovered, runs: s.runs, overdue: since > 2 * every)
        }
        return AppStoreSyncStatus(apps: apps, every: every)
    }

    /// `45 s`, `12 min`, `3 h`, `2 d`.
    public static func duration(_ seconds: Double) -> String {
        let s = max(0, seconds)
        if s < 120 { return "\(Int(s)) s" }
        if s < 7_200 { return "\(Int(s / 60)) min" }
        if s < 172_800 { return "\(Int(s / 3_600)) h" }
        return "\(Int(s / 86_400)) d"
    }
}
