import Foundation
import LedgerDomain
import Postgres

/// Where the Stripe events sync stands, per app: what `ledger stripe sync status` and
/// `/metrics` show, judged in one place. Overdue when the last success (or, before any,
/// the first start) is older than twice LEDGER_STRIPE_SYNC_EVERY.
public struct StripeSyncStatus: Sendable, Encodable {
    public struct App: Sendable, Encodable {
        public var appID: String
        public var last: StripeSyncRun
        public var lastSucceeded: StripeSyncRun?
        /// Events recovered by the runs kept (not dry).
        public var recovered: Int64
        public var overdue: Bool

        enum CodingKeys: String, CodingKey { case appID = "app_id", last, lastSucceeded = "last_succeeded", recovered, overdue }
    }

    public var apps: [App]
    /// LEDGER_STRIPE_SYNC_EVERY, seconds.
    public var every: Double

    /// Why each overdue app is, in words, naming no secret.
    public func warnings(now: Timestamp) -> [String] {
        apps.filter(\.overdue).map { app in
            let since = app.lastSucceeded?.finished.map { "its last success was \(AppStoreSyncStatus.duration(now.seconds - $0.seconds)) ago" }
                ?? "it never succeeded"
            return "the Stripe events sync of app \(app.appID) is overdue: \(since), and it runs every \(AppStoreSyncStatus.duration(every))"
                + (app.last.failureCode.map { "; the last run stopped on \($0)" } ?? "")
        }
    }

    public static func read(connections: PostgresPool, every: Double, now: Timestamp) throws -> StripeSyncStatus {
        let apps = try StripeSyncRuns(connections: connections).summaries().map { s in
            let since = now.seconds - (s.lastSucceeded?.finished ?? s.firstStarted).seconds
            return App(appID: s.app, last: s.last, lastSucceeded: s.lastSucceeded, recovered: s.recovered, overdue: since > 2 * every)
        }
        return StripeSyncStatus(apps: apps, every: every)
    }
}
