import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import Stripe
import StripeAPI

/// Recovery of what Stripe sent (docs/web-checkout.md, "Nothing the processor sent is
/// lost"): lists an app's events of the types the rules read since a time that overlaps
/// the last run (Stripe keeps 30 days), and records each the log does not hold through the
/// rules of a delivered webhook (`StripeEventAct`, keyed by the event's id), attributed to
/// the run. A recovered event and a delivered one append the same event; only the metadata
/// differs. Oldest first, so that a run cut off has recorded a prefix; a rerun records
/// nothing twice.
public struct StripeEventsSync: Sendable {
    public struct Settings: Sendable, Hashable {
        /// Seconds between the starts of two runs (LEDGER_STRIPE_SYNC_EVERY).
        public var every: Double
        /// Seconds by which a run asks from before the last successful one started.
        public var overlap: Double
        /// Seconds the first run of an app looks back.
        public var firstWindow: Double
        /// The most events one run records; the next run goes on.
        public var maximumEvents: Int

        public init(every: Double = 3_600, overlap: Double = 900, firstWindow: Double = 86_400, maximumEvents: Int = 100_000) {
            self.every = every
            self.overlap = overlap
            self.firstWindow = firstWindow
            self.maximumEvents = maximumEvents
        }
    }

    /// What a run did.
    public struct Report: Sendable {
        public var run: StripeSyncRun
        /// The ids of the events it recorded (a dry run: that it would).
        public var recovered: [String]
        /// Events the rules refused (recorded nothing), with the refusal's code.
        public var refused: [String: String]
        /// Stripe listed more than one run takes: the next run goes on.
        public var incomplete: Bool
    }

    /// How far back Stripe keeps events, less an hour of margin.
    public static let retentionSeconds: Double = 30 * 86_400 - 3_600

    public let appID: String
    public let client: StripeAPIClient
    public let settings: Settings
    let runs: StripeSyncRuns
    let connections: PostgresPool
    let acts: ActRunner
    let actor: Actor
    let now: LedgerClock

    /// `actor`: who records what is recovered: the processor's events API for the job
    /// beside the projector, the operator who runs `ledger stripe reconcile`.
    public init(appID: String, client: StripeAPIClient, settings: Settings, connections: PostgresPool, store: EventStore,
                actor: Actor = Actor(.processor, "stripe-events-api"), now: @escaping LedgerClock) {
        self.appID = appID
        self.client = client
        self.settings = settings
        self.runs = StripeSyncRuns(connections: connections)
        self.connections = connections
        self.acts = ActRunner(store: store, connections: connections, now: now)
        self.actor = actor
        self.now = now
    }

    /// Whether a run is due: never run, or the last success started `every` ago.
    public func isDue() throws -> Bool {
        guard let last = try runs.lastSucceeded(app: appID) else { return true }
        return now().seconds - last.started.seconds >= settings.every
    }

    /// Runs once: from `since`, else `overlap` before the last success started, else
    /// `firstWindow` ago; never older than Stripe keeps. `dryRun` records nothing and
    /// reports what it would. Throws `StripeSyncFailure` when another process runs the
    /// app's sync or when it stops on an error, after recording the run.
    @discardableResult
    public func run(since: Timestamp? = nil, dryRun: Bool = false) throws -> Report {
        // One run of an app at a time: a session lock on a connection of its own, released
        // when the run ends or its process dies.
        let lock = try PostgresConnection(conninfo: connections.directConninfo)
        guard try lock.query("SELECT pg_try_advisory_lock($1::int, hashtext($2))", [AdvisoryLock.stripeSync, appID]).rows.first?.bool(0) == true else {
            throw StripeSyncFailure(code: "sync_running", message: "another process is running the Stripe sync of \(appID) now")
        }
        return try withExtendedLifetime(lock) { try locked(since: since, dryRun: dryRun) }
    }

    func start(since: Timestamp?) throws -> Timestamp {
        let end = now().seconds
        var start: Double
        if let since {
            start = since.seconds
        } else if let last = try runs.lastSucceeded(app: appID) {
            start = last.started.seconds - settings.overlap
        } else {
            start = end - settings.firstWindow
        }
        start = max(start, end - Self.retentionSeconds)
        return Timestamp(microseconds: Int64(start.rounded(.down)) * 1_000_000) ?? now()
    }

    private func locked(since: Timestamp?, dryRun: Bool) throws -> Report {
        var run = try runs.begin(app: appID, since: try start(since: since), dryRun: dryRun, now: now())
        var report = Report(run: run, recovered: [], refused: [:], incomplete: false)
        do {
            let listed = try client.events(since: Int64(run.since.seconds), types: StripeEvent.factTypes, maximumCount: settings.maximumEvents)
            report.incomplete = !listed.isComplete
            let events = listed.events.reversed()
            run.seen = events.count
            let keys = events.map { WebCheckoutDecider.key(app: appID, event: $0.id) }
            let known = try acts.store.log.recordedKeys(keys)
            for (event, key) in zip(events, keys) where known[key] == nil {
                let recorded: StripeEventRecorded
                do {
                    recorded = try StripeEvent(body: event.json.compactBytes()).recorded(appID: appID)
                } catch {
                    report.refused[event.id] = error.code.rawValue
                    continue
                }
                if dryRun {
                    report.recovered.append(event.id)
                    continue
                }
                var metadata = StripeEventAct.metadata(for: recorded, source: .reconcile(run: run.id.uuidString.lowercased()))
                metadata.actor = actor
                let (outcome, _) = try acts.run(StripeEventAct(recorded), metadata: metadata, key: nil)
                switch outcome {
                case .appended(let result) where !result.replayed: report.recovered.append(event.id)
                case .appended, .alreadyRecorded: break
                case .refused(let refusal): report.refused[event.id] = refusal.code.rawValue
                case .conflict(let conflict): throw StripeSyncFailure(code: "conflict", message: conflict.detail)
                case .outcomeUnknown(let detail), .unavailable(let detail): throw StripeSyncFailure(code: "database_unavailable", message: detail)
                case .projectionBehind(let behind): throw StripeSyncFailure(code: "projection_behind", message: "\(behind)")
                }
            }
            run.recovered = report.recovered.count
            run.refused = report.refused.count
            try runs.finish(run, now: now())
            run.finished = now()
            report.run = run
            return report
        } catch let error as StripeAPIError {
            try? stop(&run, report: report, code: error.code.rawValue, failure: error.description)
            throw StripeSyncFailure(code: error.code.rawValue, message: error.description)
        } catch let failure as StripeSyncFailure {
            try? stop(&run, report: report, code: failure.code, failure: failure.message)
            throw failure
        } catch {
            try? stop(&run, report: report, code: "database_unavailable", failure: "\(error)")
            throw StripeSyncFailure(code: "database_unavailable", message: "\(error)")
        }
    }

    private func stop(_ run: inout StripeSyncRun, report: Report, code: String, failure: String) throws {
        run.recovered = report.recovered.count
        run.refused = report.refused.count
        run.failureCode = code
        run.failure = failure
        try runs.finish(run, now: now())
    }
}

/// Why a Stripe sync did not run or stopped, with a stable code.
public struct StripeSyncFailure: Error, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String
    public var description: String { "\(code): \(message)" }
}
