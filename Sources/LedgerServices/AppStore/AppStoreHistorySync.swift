import AppStore
import AppStoreServerAPI
import EventStore
import Foundation
import LedgerDomain
import Postgres

/// Recovery of what Apple sent (docs/appstore.md, "Recovery: the notification history
/// sync"): asks Apple's notification history for a window that overlaps the last one, and
/// records each notification the log does not hold through the rules of a delivered one
/// (`AppStoreNotificationAct`, deduplicated on its UUID), attributed to the run. A recovered
/// notification and a delivered one append the same event; only the metadata differs.
///
/// Progress is written after each page (`AppStoreSyncRuns`): a run cut off resumes from
/// the page it had reached, and a page recorded twice appends nothing the second time.
public struct AppStoreHistorySync: Sendable {
    public struct Settings: Sendable, Hashable {
        /// Seconds between the starts of two runs (LEDGER_APPSTORE_SYNC_EVERY).
        public var every: Double
        /// Seconds by which a window starts before the last covered one ended: a
        /// notification Apple lists late, or a clock a little apart, is still asked for.
        public var overlap: Double
        /// Seconds the first run of an app looks back (`ledger appstore sync run --since`
        /// goes further, within Apple's retention).
        public var firstWindow: Double
        /// Seconds before a run stopped on an error is resumed.
        public var retryAfterError: Double

        public init(every: Double = 3_600, overlap: Double = 900, firstWindow: Double = 86_400, retryAfterError: Double = 300) {
            self.every = every
            self.overlap = overlap
            self.firstWindow = firstWindow
            self.retryAfterError = retryAfterError
        }
    }

    /// What a run did.
    public struct Report: Sendable {
        public var run: AppStoreSyncRun
        /// It went on from a run cut off or stopped on an error.
        public var resumed: Bool
        /// The UUIDs of the notifications it recorded (resumed: since it went on; the run's
        /// `recovered` counts those recorded before the cut too).
        public var recovered: [String]
        /// Notifications the rules refused (recorded nothing), with the refusal's code.
        public var refused: [String: String]
    }

    public let client: AppStoreServerAPIClient
    public let settings: Settings
    let runs: AppStoreSyncRuns
    let connections: PostgresPool
    let acts: ActRunner
    let products: AppStoreProducts
    let actor: Actor
    let now: LedgerClock

    /// `actor`: who records what is recovered: Apple's history itself for the job beside
    /// the projector, the operator who runs `ledger appstore sync run`.
    public init(client: AppStoreServerAPIClient, settings: Settings, connections: PostgresPool, store: EventStore,
                products: AppStoreProducts, actor: Actor = Actor(.apple, "notification-history"), now: @escaping LedgerClock) {
        self.client = client
        self.settings = settings
        self.runs = AppStoreSyncRuns(connections: connections)
        self.connections = connections
        self.acts = ActRunner(store: store, connections: connections, now: now)
        self.products = products
        self.actor = actor
        self.now = now
    }

    public var bundleID: String { client.configuration.credentials.bundleID }

    /// `production`, `sandbox`, or `local` (a stand-in): how the runs name the environment.
    public var environment: String {
        let e = client.configuration.environment
        guard e.isApple else { return "local" }
        return e.signedEnvironment == AppStoreEnvironmentPolicy.Environment.production ? "production" : "sandbox"
    }

    /// The notification URL the history stands for (N7): Apple's production history holds
    /// what it sent to the production URL, any other what it sent to the sandbox URL.
    var receivedAt: String { client.configuration.environment.signedEnvironment == AppStoreEnvironmentPolicy.Environment.production ? "production" : "sandbox" }

    /// Whether a run is due now: one is open (resumed at once after a cut, `retryAfterError`
    /// after an error), or the last one started `every` seconds ago or more, or none ran.
    public func isDue() throws -> Bool {
        let t = now()
        if let open = try runs.open(bundleID: bundleID, environment: environment) {
            return open.failureCode == nil || t.seconds - open.updated.seconds >= settings.retryAfterError
        }
        guard let last = try runs.last(bundleID: bundleID, environment: environment) else { return true }
        let wait = last.succeeded ? settings.every : min(settings.every, settings.retryAfterError)
        return t.seconds - last.started.seconds >= wait
    }

    /// Runs one sync to its end: resumes the open run, or begins one whose window starts
    /// `overlap` before the last covered window ended (`since`, when given, instead: an
    /// operator's look further back). Throws `AppStoreSyncFailure` when it stops on an
    /// error, after recording where it stopped; `shouldStop` is asked between pages;
    /// `afterRecording` sees the count recovered by the run after each one recorded.
    @discardableResult
    public func run(since: Timestamp? = nil, shouldStop: () -> Bool = { false },
                    afterRecording: (Int) -> Void = { _ in }) throws -> Report {
        // One run of an app at a time, whoever runs it (the projector's job, an operator):
        // two would ask Apple the same pages and count what they found twice. A session
        // lock, on a connection of its own, released when the run ends or its process dies.
        let lock = try PostgresConnection(conninfo: connections.directConninfo)
        guard try lock.query("SELECT pg_try_advisory_lock($1::int, hashtext($2))",
                             [AdvisoryLock.appStoreSync, "\(bundleID) \(environment)"]).rows.first?.bool(0) == true else {
            throw AppStoreSyncFailure(code: "sync_running", message: "another process is running the sync of \(bundleID) (\(environment)) now",
                                      syncID: nil, final: false)
        }
        return try withExtendedLifetime(lock) { try locked(since: since, shouldStop: shouldStop, afterRecording: afterRecording) }
    }

    private func locked(since: Timestamp?, shouldStop: () -> Bool, afterRecording: (Int) -> Void) throws -> Report {
        var run: AppStoreSyncRun
        var resumed = false
        if since == nil, let open = try runs.open(bundleID: bundleID, environment: environment) {
            run = open
            resumed = true
        } else {
            if let open = try runs.open(bundleID: bundleID, environment: environment) {
                // An operator asks for another window: the open one is given up, its window
                // is covered by the new one or by the next scheduled run.
                try runs.stop(open.id, code: "superseded", failure: "an operator began another window", final: true, now: now())
            }
            run = try runs.begin(bundleID: bundleID, environment: environment, window: try window(since: since), now: now())
        }
        var report = Report(run: run, resumed: resumed, recovered: [], refused: [:])
        let query = AppStoreNotificationHistoryQuery(start: Date(timeIntervalSince1970: run.windowStart.seconds),
                                                     end: Date(timeIntervalSince1970: run.windowEnd.seconds))
        var token = run.paginationToken
        do {
            for _ in 0..<AppStoreServerAPIClient.maximumPages {
                if shouldStop() {
                    report.run = run
                    return report
                }
                let page = try client.notificationHistoryPage(query, paginationToken: token)
                let already = run.recovered
                let (recovered, count, refused) = try record(page.items, sync: run.id) { afterRecording(already + $0) }
                report.recovered += recovered
                report.refused.merge(refused) { a, _ in a }
                token = page.hasMore ? page.paginationToken : nil
                try runs.advance(run.id, paginationToken: token, seen: page.items.count, recovered: count, now: now())
                run.pages += 1
                run.seen += page.items.count
                run.recovered += count
                run.failureCode = nil
                run.failure = nil
                run.paginationToken = token
                guard page.hasMore else {
                    try runs.finish(run.id, now: now())
                    run.finished = now()
                    report.run = run
                    return report
                }
            }
            throw AppStoreServerAPIError(.malformedAnswer, "Get Notification History had more than \(AppStoreServerAPIClient.maximumPages) pages")
        } catch let error as AppStoreServerAPIError {
            // Apple refused the token or the window: resuming cannot get past it, and the
            // next run asks the window again from the last one covered.
            let final = [AppStoreServerAPIError.Code.invalidPaginationToken, .paginationTokenExpired, .startDateTooFarInPast,
                         .invalidRequest, .malformedAnswer].contains(error.code)
            try? runs.stop(run.id, code: error.code.rawValue, failure: error.description, final: final, now: now())
            throw AppStoreSyncFailure(code: error.code.rawValue, message: error.description, syncID: run.id, final: final)
        } catch let failure as AppStoreSyncFailure {
            try? runs.stop(run.id, code: failure.code, failure: failure.message, final: false, now: now())
            throw failure
        } catch {
            // The database: the run stays open, resumed from its last recorded page.
            try? runs.stop(run.id, code: "database_unavailable", failure: "\(error)", final: false, now: now())
            throw AppStoreSyncFailure(code: "database_unavailable", message: "\(error)", syncID: run.id, final: false)
        }
    }

    /// The window of a new run: from `since`, or `overlap` before the last covered window
    /// ended, or `firstWindow` ago; never older than Apple keeps (less an hour of margin).
    func window(since: Timestamp?) throws -> (start: Timestamp, end: Timestamp) {
        let end = now()
        let retentionDays = environment == "production" ? AppStoreNotificationHistoryQuery.productionRetentionDays
            : AppStoreNotificationHistoryQuery.sandboxRetentionDays
        let oldest = end.microseconds - Int64(retentionDays) * 86_400_000_000 + 3_600_000_000
        var start: Int64
        if let since {
            start = since.microseconds
        } else if let last = try runs.lastSucceeded(bundleID: bundleID, environment: environment) {
            start = last.windowEnd.microseconds - Int64(settings.overlap * 1e6)
        } else {
            start = end.microseconds - Int64(settings.firstWindow * 1e6)
        }
        start = min(max(start, oldest), end.microseconds - 1_000_000)
        return (Timestamp(microseconds: start) ?? end, end)
    }

    /// Records a page's notifications that the log does not hold; the UUIDs recorded, how
    /// many of the page this run recorded (those recorded before a cut included), and those
    /// refused. A notification found recorded is skipped without deciding it again.
    func record(_ items: [AppStoreNotificationHistoryItem], sync: UUID,
                afterRecording: (Int) -> Void) throws -> (recovered: [String], count: Int, refused: [String: String]) {
        let syncID = sync.uuidString.lowercased()
        let notifications = items.map { $0.notification.value }
        let keys = notifications.map { AppStoreDecider.Notification($0).idempotencyKey }
        let known = try acts.store.log.recordedKeys(keys)
        var recovered: [String] = [], refused: [String: String] = [:]
        var count = 0
        var done: Set<String> = []
        for (verified, key) in zip(notifications, keys) where done.insert(key).inserted {
            if let metadata = known[key] {
                // Recorded by this run before it was cut off: recovered all the same.
                if metadata["sync_id"]?.stringValue == syncID { count += 1 }
                continue
            }
            let act = AppStoreNotificationAct(AppStoreDecider.Notification(verified), receivedAt: receivedAt, products: products)
            var metadata = AppStoreNotificationAct.metadata(for: verified, source: .notificationHistory(sync: syncID))
            metadata.actor = actor
            let (outcome, _) = try acts.run(act, metadata: metadata, key: nil)
            switch outcome {
            case .appended(let result) where !result.replayed:
                recovered.append(verified.notificationUUID)
                count += 1
                afterRecording(count)
            case .appended, .alreadyRecorded: break
            case .refused(let refusal): refused[verified.notificationUUID] = refusal.code.rawValue
            case .conflict(let conflict):
                throw AppStoreSyncFailure(code: "conflict", message: conflict.detail, syncID: sync, final: false)
            case .outcomeUnknown(let detail), .unavailable(let detail):
                throw AppStoreSyncFailure(code: "database_unavailable", message: detail, syncID: sync, final: false)
            case .projectionBehind(let behind):
                throw AppStoreSyncFailure(code: "projection_behind", message: "\(behind)", syncID: sync, final: false)
            }
        }
        return (recovered, count, refused)
    }
}
