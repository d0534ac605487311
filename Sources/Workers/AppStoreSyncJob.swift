import Dispatch
import Foundation
import LedgerServices
import ProjectionEngine
import Synchronization

/// The notification history sync's schedule (docs/appstore.md, "Recovery: the
/// notification history sync"): beside the projector, and only while its process is the
/// active projector (one per database, like the webhook sender), it looks every few seconds
/// whether an app's run is due and runs it (`AppStoreHistorySync`). A run in flight stops
/// between pages when the process stops or loses the projector's lock; the next active
/// projector resumes it from its last recorded page.
public final class AppStoreSyncJob: Sendable {
    private let syncs: [AppStoreHistorySync]
    private let log: ProjectorLog
    private let loop: ActiveProjectorLoop

    /// `interval`: seconds between looks at what is due.
    public init(syncs: [AppStoreHistorySync], isActive: @escaping @Sendable () -> Bool, interval: Double = 5, log: @escaping ProjectorLog) {
        self.syncs = syncs
        self.log = log
        loop = ActiveProjectorLoop(name: "appstore-sync", interval: interval, isActive: isActive)
    }

    /// Starts looking on a thread of its own.
    public func start() { loop.start { [self] in tick() } }

    /// Stops at the next page and waits for the run in flight to record where it stopped.
    public func stop() {
        guard loop.stop() else { return }
        for sync in syncs { sync.client.close() }
    }

    /// One look: runs each app's sync that is due, one after the other.
    public func tick() {
        for sync in syncs {
            guard loop.mayGoOn else { return }
            let app = ["bundle_id": sync.bundleID, "environment": sync.environment]
            do {
                guard try sync.isDue() else { continue }
                let report = try sync.run(shouldStop: { [loop] in !loop.mayGoOn })
                guard report.run.finished != nil else { continue }
                log(report.recovered.isEmpty ? .info : .warning, "app store notification history synced", app.merging([
                    "sync_id": report.run.id.uuidString.lowercased(), "window_start": report.run.windowStart.iso8601,
                    "window_end": report.run.windowEnd.iso8601, "pages": String(report.run.pages), "seen": String(report.run.seen),
                    "recovered": String(report.run.recovered), "resumed": String(report.resumed),
                    "refused": report.refused.isEmpty ? "0" : report.refused.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ","),
                ]) { a, _ in a })
            } catch let failure as AppStoreSyncFailure where failure.syncID == nil {
                // An operator's run holds it: the next look tries again.
                log(.info, "app store notification history sync left to the process running it", app.merging(["error": failure.message]) { a, _ in a })
            } catch let failure as AppStoreSyncFailure {
                log(.warning, "app store notification history sync stopped", app.merging([
                    "sync_id": failure.syncID?.uuidString.lowercased() ?? "", "code": failure.code, "error": failure.message,
                    "next": failure.final ? "the next run asks the window again" : "resumed after a pause",
                ]) { a, _ in a })
            } catch {
                log(.warning, "app store notification history sync not started", app.merging(["error": "\(error)"]) { a, _ in a })
            }
        }
    }
}
