import Dispatch
import Foundation
import LedgerDomain
import LedgerServices
import Workers

extension AppStoreSyncPaths {
    /// The sync on its schedule: an `AppStoreSyncJob` as `ledger project` runs it (every
    /// `every` seconds, looking every `look`), and one notification dropped at a random
    /// moment of its cycle for each of `organizations`, one after the other, each timed from
    /// the drop until the organization's plan read shows it. Prints each sample, the p50 and
    /// the maximum, and what the service's default of 3600 s implies, computed from the
    /// runs measured here.
    func latency(_ organizations: [BenchOrganizations.Organization], every: Double, look: Double) throws -> [AppStoreSyncBenchmark.LatencySample] {
        let standIn = try apple.standIn()
        defer { standIn.stop() }
        let sync = apple.sync(of: standIn, every: every, connections: syncConnections, store: syncStore)
        let job = AppStoreSyncJob(syncs: [sync], isActive: { true }, interval: look, log: { level, message, fields in
            // Each recovery is logged as a warning: expected here, and the samples say it.
            guard level == .warning || level == .error, message != "app store notification history synced" else { return }
            BenchOutput.line("sync job \(level.rawValue): \(message) " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        })
        job.start()
        defer { job.stop() }
        let runs = AppStoreSyncRuns(connections: syncConnections)
        BenchOutput.line("latency: an AppStoreSyncJob every \(AppStoreSyncBenchmark.Result.seconds(every)) s, looking every \(AppStoreSyncBenchmark.Result.seconds(look)) s\(every < 10 ? " (the service refuses less than 10 s)" : ""); \(organizations.count) notification\(organizations.count == 1 ? "" : "s") dropped, each at a random moment of its cycle")
        var samples: [AppStoreSyncBenchmark.LatencySample] = []
        for (k, org) in organizations.enumerated() {
            // The last sample ended just after a run: a uniform delay puts the next drop at
            // a uniform moment of the cycle.
            Thread.sleep(forTimeInterval: Double.random(in: 0..<every))
            let jws = apple.subscribed(org.accountToken, Self.plan, originalTransactionID: org.originalTransactionID)
            let droppedAt = SystemClock.now()
            let start = DispatchTime.now().uptimeNanoseconds
            standIn.deliver(notification: jws, to: notificationURL, dropping: true)
            let limit = every + look + 300
            var seconds = 0.0
            while try currentPlan(org.id) != Self.plan {
                seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                guard seconds < limit else {
                    throw BenchmarkFailure(.unexpectedResponse, "organization \(org.id)'s plan was not corrected " + String(format: "%.0f s after its notification was dropped", seconds))
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let correctedAt = SystemClock.now()
            var sample = AppStoreSyncBenchmark.LatencySample(seconds: seconds)
            let recent = try runs.latest(bundleID: BenchAppStore.bundleID, limit: 10).filter { $0.environment == sync.environment }
            func between(_ a: Timestamp, _ b: Timestamp) -> Double { Double(b.microseconds - a.microseconds) / 1e6 }
            if let before = recent.filter({ $0.started.microseconds <= droppedAt.microseconds }).max(by: { $0.started.microseconds < $1.started.microseconds }) {
                sample.phase = between(before.started, droppedAt)
            }
            // A run that had finished before the drop cannot have recovered it.
            if let recovering = recent.filter({ ($0.finished?.microseconds ?? .max) >= droppedAt.microseconds && $0.succeeded })
                .min(by: { $0.started.microseconds < $1.started.microseconds }), let finished = recovering.finished {
                sample.wait = between(droppedAt, recovering.started)
                sample.run = between(recovering.started, finished)
                sample.runToPlan = between(recovering.started, correctedAt)
            }
            samples.append(sample)
            func format(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "?" }
            BenchOutput.line("latency: sample \(k + 1): dropped \(format(sample.phase)) s after a run started; the next run started \(format(sample.wait)) s after the drop and took \(format(sample.run)) s; "
                             + String(format: "plan corrected %.2f s after the drop", seconds))
        }
        let sorted = samples.map(\.seconds).sorted()
        BenchOutput.line(String(format: "latency: drop→plan corrected p50 %.2f s, max %.2f s over %d sample", Percentile.nearestRank(sorted, 0.5), sorted.last ?? 0, sorted.count)
                         + (sorted.count == 1 ? "" : "s")
                         + " at every \(AppStoreSyncBenchmark.Result.seconds(every)) s")
        // At an hour the samples would take hours: the default's figures are computed from
        // what a run took here, from its start until the plan read showed its recovery.
        let runToPlan = Percentile.median(samples.compactMap(\.runToPlan))
        let standard = 3_600.0
        BenchOutput.line(String(format: "latency: computed, not measured: at the default every %.0f s, mean every/2 + run = %.1f s, worst every + look + run = %.1f s (run = %.2f s, the median of this run's run start → plan corrected)",
                                standard, standard / 2 + runToPlan, standard + look + runToPlan, runToPlan))
        return samples
    }
}
