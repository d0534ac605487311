import Dispatch
import Foundation
import LedgerServices
import ProjectionEngine
import Synchronization

/// The Stripe events sync's schedule (docs/web-checkout.md, "Nothing the processor sent is
/// lost"): beside the projector, and only while its process is the active projector, it
/// looks every few seconds whether an app's run is due and runs it (`StripeEventsSync`).
public final class StripeSyncJob: Sendable {
    private let syncs: [StripeEventsSync]
    private let log: ProjectorLog
    private let loop: ActiveProjectorLoop

    /// `interval`: seconds between looks at what is due.
    public init(syncs: [StripeEventsSync], isActive: @escaping @Sendable () -> Bool, interval: Double = 5, log: @escaping ProjectorLog) {
        self.syncs = syncs
        self.log = log
        loop = ActiveProjectorLoop(name: "stripe-sync", interval: interval, isActive: isActive)
    }

    /// Starts looking on a thread of its own.
    public func start() { loop.start { [self] in tick() } }

    /// Stops after the run in flight.
    public func stop() {
        guard loop.stop() else { return }
        for sync in syncs { sync.client.close() }
    }

    /// One look: runs each app's sync that is due, one after the other.
    public func tick() {
        for sync in syncs {
            guard loop.mayGoOn else { return }
            let app = ["app_id": sync.appID]
            do {
                guard try sync.isDue() else { continue }
                let report = try sync.run()
                log(report.recovered.isEmpty && report.refused.isEmpty ? .info : .warning, "stripe events synced", app.merging([
                    "run_id": report.run.id.uuidString.lowercased(), "since": report.run.since.iso8601, "seen": String(report.run.seen),
                    "recovered": String(report.run.recovered), "incomplete": String(report.incomplete),
                    "refused": report.refused.isEmpty ? "0" : report.refused.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ","),
                ]) { a, _ in a })
            } catch let failure as StripeSyncFailure {
                log(failure.code == "sync_running" ? .info : .warning, "stripe events sync stopped",
                    app.merging(["code": failure.code, "error": failure.message]) { a, _ in a })
            } catch {
                log(.warning, "stripe events sync not started", app.merging(["error": "\(error)"]) { a, _ in a })
            }
        }
    }
}
