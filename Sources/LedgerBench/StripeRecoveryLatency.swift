import Dispatch
import EventStore
import Foundation
import LedgerDomain
import LedgerServices
import Postgres
import StripeAPI
import StripeStandIn
import Workers

/// `ledger-bench stripe --latency-samples K`: how long a Stripe event whose webhook never
/// came leaves a user holding what they no longer hold. A stand-in Stripe delivers to the
/// app's endpoint of the real service; a `StripeSyncJob` runs beside the projector as
/// `ledger project` runs it (every `every` seconds, looking every 5, as a login in
/// ledger_projector with a pool of two). K users each hold an active web subscription,
/// delivered normally; then, one after the other, each one's `customer.subscription.deleted`
/// is recorded with `.drop` at a random moment of the sync's cycle, and timed from the drop
/// until `EntitlementsQuery` shows the user holding nothing.
struct StripeRecoveryLatency: Sendable {
    /// One dropped event, and what became of it.
    struct Sample: Sendable {
        /// Seconds from the drop until the entitlements read showed nothing held.
        var seconds: Double
        /// Seconds since the last run had started, at the drop.
        var phase: Double?
        /// The run that recovered it: seconds from the drop to its start, and its length.
        var wait: Double?
        var run: Double?
        /// Seconds from the recovering run's start until the entitlements read showed it.
        var runToCorrected: Double?
    }

    let service: BenchService
    let appID: String
    /// The app's endpoint secret: the stand-in signs its deliveries with it.
    let secret: String
    /// The benchmark's database as a login in ledger_projector: the sync's.
    let projectorURL: String
    /// LEDGER_STRIPE_SYNC_EVERY, in seconds.
    let every: Double
    /// Seconds between the job's looks at what is due: `StripeSyncJob`'s default, as
    /// `ledger project` runs it.
    static let look = 5.0

    /// K users' subscriptions delivered, the job started, then one drop a sample; prints
    /// each sample and the result's lines.
    func measure(samples count: Int, run: String) throws -> StripeRecoveryResult {
        let standIn = try StripeStandIn()
        defer { standIn.stop() }
        standIn.addEndpoint(url: "http://127.0.0.1:\(service.port)/v1/stripe/webhooks/\(appID)", secret: secret)
        let now = Int64(Date().timeIntervalSince1970)
        var scenarios = (1...count).map {
            StripeScenario(start: now, userID: "bench-\(run)-recovery-\($0)", productID: "plus_monthly", amount: 999)
        }
        for k in scenarios.indices { standIn.record(scenarios[k].startPaidSubscription()) }
        try delivered(standIn)
        for scenario in scenarios {
            try waitFor("\(scenario.userID) to hold plus_monthly", limit: 30) { try held(scenario.userID)?.isEmpty == false }
        }

        let connections = PostgresPool(conninfo: projectorURL, maximumConnections: 2)
        let store = EventStore(conninfo: projectorURL, connections: connections)
        defer { store.close() }
        let client = StripeAPIClient(configuration: try StripeAPIConfiguration(appID: appID, secretKey: standIn.account.secretKey,
                                                                                baseURL: standIn.baseURL))
        let sync = StripeEventsSync(appID: appID, client: client, settings: StripeEventsSync.Settings(every: every),
                                    connections: connections, store: store, now: SystemClock.now)
        let job = StripeSyncJob(syncs: [sync], isActive: { true }, interval: Self.look, log: { level, message, fields in
            // Each recovery is logged as a warning: expected here, and the samples say it.
            guard level == .warning || level == .error, message != "stripe events synced" else { return }
            BenchOutput.line("sync job \(level.rawValue): \(message) " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        })
        job.start()
        defer { job.stop() }
        let runs = StripeSyncRuns(connections: connections)
        // The first run starts with the job (none has run): the cycle is counted from it.
        try waitFor("the sync's first run", limit: 60) { try runs.lastSucceeded(app: appID) != nil }
        BenchOutput.line("recovery: \(count) user\(count == 1 ? "" : "s") holding an active web subscription (delivered to the endpoint by a stand-in Stripe); a StripeSyncJob every \(StripeRecoveryResult.seconds(every)) s, looking every \(StripeRecoveryResult.seconds(Self.look)) s, as a login in ledger_projector; each user's customer.subscription.deleted dropped at a random moment of the cycle")

        var samples: [Sample] = []
        for k in scenarios.indices {
            try waitForRandomMoment(runs)
            scenarios[k].now = Int64(Date().timeIntervalSince1970)
            let deletion = scenarios[k].deleteSubscription()
            let droppedAt = SystemClock.now()
            let start = DispatchTime.now().uptimeNanoseconds
            let event = standIn.record(deletion, mode: .drop)
            let user = scenarios[k].userID
            let limit = every + Self.look + 300
            var seconds = 0.0
            while try held(user)?.isEmpty != true {
                seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                guard seconds < limit else {
                    throw BenchmarkFailure(.unexpectedResponse, "\(user) still holds plus_monthly " + String(format: "%.0f s after the deletion was dropped", seconds))
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let correctedAt = SystemClock.now()
            guard standIn.droppedEventIDs.contains(event.id), !standIn.deliveries.contains(where: { $0.eventID == event.id }) else {
                throw BenchmarkFailure(.unexpectedResponse, "\(event.id) was delivered, not dropped")
            }
            let sample = try Self.sample(seconds: seconds, droppedAt: droppedAt, correctedAt: correctedAt,
                                         runs: try runs.latest(app: appID, limit: 10))
            samples.append(sample)
            func format(_ value: Double?, _ scale: Double = 1, _ spec: String = "%.2f") -> String {
                value.map { String(format: spec, $0 * scale) } ?? "?"
            }
            BenchOutput.line("recovery: sample \(k + 1): dropped \(format(sample.phase)) s after a run started; the next run started \(format(sample.wait)) s after the drop and took \(format(sample.run, 1_000, "%.0f")) ms; "
                             + "the entitlement read showed nothing held \(format(sample.runToCorrected, 1_000, "%.0f")) ms after its start, "
                             + String(format: "%.2f s after the drop", seconds))
        }
        let result = StripeRecoveryResult(every: every, samples: samples)
        BenchOutput.line(result.summary)
        BenchOutput.line(result.defaultPeriodLine)
        return result
    }

    /// Sleeps until a moment drawn uniformly within the sync's period, counted from the
    /// start of its last successful run (a period on when that moment has passed).
    private func waitForRandomMoment(_ runs: StripeSyncRuns) throws {
        guard let last = try runs.lastSucceeded(app: appID) else { throw BenchmarkFailure(.unexpectedResponse, "the sync has no successful run") }
        var target = last.started.seconds + Double.random(in: 0..<every)
        let now = SystemClock.now().seconds
        while target < now { target += every }
        Thread.sleep(forTimeInterval: target - now)
    }

    /// The sample's place in the cycle, from the runs of the app (newest first): the run
    /// that recovered the drop is the first to finish after it having recovered something
    /// (one drop at a time, and nothing else is missing).
    static func sample(seconds: Double, droppedAt: Timestamp, correctedAt: Timestamp, runs: [StripeSyncRun]) throws -> Sample {
        var sample = Sample(seconds: seconds)
        func between(_ a: Timestamp, _ b: Timestamp) -> Double { Double(b.microseconds - a.microseconds) / 1e6 }
        if let before = runs.filter({ $0.started <= droppedAt }).max(by: { $0.started < $1.started }) {
            sample.phase = between(before.started, droppedAt)
        }
        if let recovering = runs.filter({ $0.succeeded && $0.recovered > 0 && ($0.finished.map { $0 >= droppedAt } ?? false) })
            .min(by: { $0.started < $1.started }), let finished = recovering.finished {
            sample.wait = between(droppedAt, recovering.started)
            sample.run = between(recovering.started, finished)
            sample.runToCorrected = between(recovering.started, correctedAt)
        }
        return sample
    }

    /// What the user holds now, as every surface reads it (`EntitlementsQuery`, as the
    /// operator's read), on the API's connections; nil when the app is not known.
    func held(_ user: String) throws -> [Entitlement]? {
        try QueryRunner(connections: service.connections, clock: SystemClock.now)
            .answer(EntitlementsQuery(app: appID, user: user), as: .operator("ledger-bench"))?.entitlements
    }

    /// Waits until the stand-in has sent every webhook, each answered 200.
    private func delivered(_ standIn: StripeStandIn) throws {
        try waitFor("the stand-in's webhooks", limit: 60) { standIn.isIdle }
        let refused = standIn.deliveries.filter { $0.status != 200 }
        guard refused.isEmpty else {
            throw BenchmarkFailure(.unexpectedResponse, "\(refused.count) webhooks not answered 200, the first \(refused[0].eventType): \(refused[0].status.map(String.init) ?? refused[0].failure ?? "?")")
        }
    }

    private func waitFor(_ what: String, limit: Double, _ done: () throws -> Bool) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        while try !done() {
            guard Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < limit else {
                throw BenchmarkFailure(.unexpectedResponse, "waited \(Int(limit)) s for \(what)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
