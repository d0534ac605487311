import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger-bench appstore-sync`: the notification history sync (docs/appstore.md, "Recovery:
/// the notification history sync") recovering what a stand-in for Apple dropped, against the
/// live notification endpoint doing the same work in the same run; then how long a dropped
/// notification leaves an organization on the wrong plan when the sync runs on its schedule.
enum AppStoreSyncBenchmark {
    static let usage = """
        usage: ledger-bench appstore-sync [--notifications N] [--rounds R] [--latency-samples K] [--every S] [--look S] [--page-size P]

        Makes database ledger_bench_appstore_sync, runs the API (as a login in ledger_service)
        and the projector in this process, and creates one organization with an account token
        per notification. Then R rounds (default 5), alternating: the baseline, N notifications
        (default 2000) POSTed one after the other by one client thread to the live endpoint
        /v1/appstore/notifications/sandbox, then the same number of other, equivalent
        notifications dropped by a stand-in for Apple's App Store Server API and recovered by
        one AppStoreHistorySync run (one thread, as the projector's process runs it, as a
        login in ledger_projector), timed from its start to its end. Each notification is a
        SUBSCRIBED (INITIAL_BUY) of the plus plan for an organization of its own, signed by
        a development authority both paths trust. Notification history pages hold P records
        (default 20, Apple's maximum). Prints each round, the medians, and the median of the
        rounds' ratios sync/live.
        Then, unless K is 0, starts an AppStoreSyncJob with LEDGER_APPSTORE_SYNC_EVERY = S
        (default 60; the service refuses less than 10), looking every --look seconds (default
        5, as `ledger project` does), drops a notification K times (default 3) at a random
        moment of its cycle, and times each from the drop until the organization's plan, read
        through OrganizationQuery, shows it: p50 and max, and what the default of 3600 s
        implies, computed (not measured) from the runs' durations. Ends with
        `appstore-sync: recovered X notifications/s (median of R), live endpoint L/s, sync/live
        Y; drop→plan corrected p50 A s, max B s at every S s`.
        """

    struct Options: Sendable {
        var notifications = 2_000
        var rounds = 5
        var latencySamples = 3
        /// LEDGER_APPSTORE_SYNC_EVERY, in seconds.
        var every: Double = 60
        /// Seconds between the job's looks at what is due (`AppStoreSyncJob`'s default).
        var look: Double = 5
        /// Notification history records a page: Apple's maximum, and the stand-in's default.
        var pageSize = 20
        /// The database it makes (the test names one of its own).
        var database = "ledger_bench_appstore_sync"
    }

    /// One round: the same number of notifications through each path.
    struct Round: Sendable {
        /// Notifications per second through the live endpoint.
        var live: Double
        /// Notifications recovered per second by one sync run.
        var sync: Double
        /// Pages the run asked.
        var pages: Int
        var ratio: Double { sync / live }
    }

    /// One notification dropped while the job ran, and what became of it.
    struct LatencySample: Sendable {
        /// Seconds from the drop until the plan read showed it.
        var seconds: Double
        /// Seconds since the last run had started, at the drop.
        var phase: Double?
        /// The run that recovered it: seconds from the drop to its start, and its length.
        var wait: Double?
        var run: Double?
        /// Seconds from the recovering run's start until the plan read showed it.
        var runToPlan: Double?
    }

    struct Result: Sendable {
        var options: Options
        var rounds: [Round]
        var samples: [LatencySample]

        var liveMedian: Double { Percentile.median(rounds.map(\.live)) }
        var syncMedian: Double { Percentile.median(rounds.map(\.sync)) }
        var ratioMedian: Double { Percentile.median(rounds.map(\.ratio)) }
        var latencies: [Double] { samples.map(\.seconds).sorted() }

        /// The last line.
        var summary: String {
            var line = String(format: "appstore-sync: recovered %.0f notifications/s (median of %d), live endpoint %.0f/s, sync/live %.2f",
                              syncMedian, rounds.count, liveMedian, ratioMedian)
            if samples.isEmpty {
                line += "; drop→plan corrected not measured (--latency-samples 0)"
            } else {
                line += String(format: "; drop→plan corrected p50 %.1f s, max %.1f s", Percentile.nearestRank(latencies, 0.5), latencies.last ?? 0)
                    + " at every \(Self.seconds(options.every)) s"
            }
            return line
        }

        /// Seconds as given on the command line: `60`, `0.25`.
        static func seconds(_ value: Double) -> String {
            var text = String(format: "%.3f", value)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        }
    }

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["notifications", "rounds", "latency-samples", "every", "look", "page-size"])
        var options = Options()
        options.notifications = try args.int("notifications", default: options.notifications)
        options.rounds = try args.int("rounds", default: options.rounds)
        options.latencySamples = try args.int("latency-samples", default: options.latencySamples)
        options.pageSize = try args.int("page-size", default: options.pageSize)
        func seconds(_ name: String, _ fallback: Double) throws -> Double {
            guard let text = args.value(name) else { return fallback }
            guard let value = Double(text), value.isFinite, value > 0 else { throw UsageError("--\(name) is a positive number of seconds, got \(text)") }
            return value
        }
        options.every = try seconds("every", options.every)
        options.look = try seconds("look", options.look)
        guard options.notifications > 0, options.rounds > 0 else { throw UsageError("--notifications and --rounds must be positive") }
        guard options.latencySamples >= 0 else { throw UsageError("--latency-samples must be 0 or more") }
        guard (1...20).contains(options.pageSize) else { throw UsageError("--page-size must be 1 to 20 (Apple answers at most 20 a page)") }
        guard options.every >= 1 else { throw UsageError("--every must be at least 1 second") }
        _ = try measure(options, environment: environment)
        return 0
    }

    /// Runs the benchmark, printing as it goes; the result for the caller (the test) to check.
    static func measure(_ options: Options, environment: LedgerEnvironment) throws -> Result {
        let url = try BenchDatabase.prepare(options.database, reuse: false, environment: environment)
        let apple = BenchAppStore(pageSize: options.pageSize)
        let service = try BenchService(url: try BenchDatabase.apiLogin(on: url), environment: environment, appStore: apple.apiSettings())
        defer { service.shutdown() }
        // The sync records as the projector's process does: its own pool of two, as a login
        // in ledger_projector (migration 0015 lets that role append what a notification records).
        let projectorURL = try BenchDatabase.projectorLogin(on: url)
        let syncConnections = PostgresPool(conninfo: projectorURL, maximumConnections: 2)
        let syncStore = EventStore(conninfo: projectorURL, connections: syncConnections)
        defer { syncStore.close() }

        let n = options.notifications
        let warmup = max(1, min(n / 10, 50))
        var orgs = BenchOrganizations(run: Hex.encode(SecureRandom.bytes(4)))
        let liveWarmup = orgs.make("live-warmup", warmup), syncWarmup = orgs.make("sync-warmup", warmup)
        let liveRounds = (0..<options.rounds).map { orgs.make("live-\($0 + 1)", n) }
        let syncRounds = (0..<options.rounds).map { orgs.make("sync-\($0 + 1)", n) }
        let dropped = orgs.make("dropped", options.latencySamples)
        let all = liveWarmup + syncWarmup + liveRounds.joined() + syncRounds.joined() + dropped
        // Operators' acts, which neither the API's login nor the projector's may append.
        let setupStore = EventStore(conninfo: url)
        let setupPosition = try orgs.append(all, to: setupStore)
        setupStore.close()
        let projector = BenchProjector(url: url)
        defer { projector.shutdown() }
        _ = try projector.wait(for: setupPosition, connections: service.connections)
        BenchOutput.line("appstore-sync: \(all.count) organizations with an account token; \(n) notifications a round, \(options.rounds) rounds alternating live endpoint then sync, one thread each, after \(warmup) unmeasured of each; history pages of \(options.pageSize) (Apple's maximum is 20); the projector running")

        let bench = AppStoreSyncPaths(apple: apple, service: service, projector: projector, syncConnections: syncConnections, syncStore: syncStore)
        _ = try bench.live(liveWarmup)
        _ = try bench.sync(syncWarmup)
        var rounds: [Round] = []
        for r in 0..<options.rounds {
            let live = try bench.live(liveRounds[r])
            BenchOutput.line(String(format: "round %d: live endpoint %.0f notifications/s (%d in %.2f s)", r + 1, Double(n) / live, n, live))
            let (sync, pages) = try bench.sync(syncRounds[r])
            let round = Round(live: Double(n) / live, sync: Double(n) / sync, pages: pages)
            BenchOutput.line(String(format: "round %d: sync %.0f recovered/s (%d in %.2f s, %d page", r + 1, round.sync, n, sync, pages)
                             + (pages == 1 ? "" : "s") + String(format: "); sync/live %.2f", round.ratio))
            rounds.append(round)
        }
        func spread(_ values: [Double], _ format: String) -> String {
            String(format: format, values.min() ?? 0) + "–" + String(format: format, values.max() ?? 0)
        }
        BenchOutput.line(String(format: "appstore-sync: live endpoint %.0f notifications/s, sync %.0f recovered/s (medians of %d rounds); sync/live %.2f, the median of the rounds' ratios",
                                Percentile.median(rounds.map(\.live)), Percentile.median(rounds.map(\.sync)), rounds.count,
                                Percentile.median(rounds.map(\.ratio))) + " (spread \(spread(rounds.map(\.ratio), "%.2f")))")

        let samples = options.latencySamples == 0 ? [] : try bench.latency(dropped, every: options.every, look: options.look)
        let result = Result(options: options, rounds: rounds, samples: samples)
        BenchOutput.line(result.summary)
        return result
    }
}
