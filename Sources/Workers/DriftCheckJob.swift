import Dispatch
import Foundation
import LedgerServices
import ProjectionEngine
import Synchronization

/// The drift check's schedule (docs/operations.md, "Drift: the projections checked against
/// the log"): beside the projector, and only while its process is the active projector, it
/// folds a sample of accounts again from the log every LEDGER_DRIFT_CHECK_EVERY seconds and
/// compares them with the live rows (`ProjectionDriftCheck`).
public final class DriftCheckJob: Sendable {
    private let check: ProjectionDriftCheck
    private let log: ProjectorLog
    private let loop: ActiveProjectorLoop

    public init(check: ProjectionDriftCheck, isActive: @escaping @Sendable () -> Bool, log: @escaping ProjectorLog) {
        self.check = check
        self.log = log
        loop = ActiveProjectorLoop(name: "drift-check", interval: check.settings.every, isActive: isActive)
    }

    /// Starts checking on a thread of its own: at once, then every interval.
    public func start() { loop.start { [self] in tick() } }

    /// Stops after the check in flight.
    public func stop() { loop.stop() }

    /// One check of each projection, logged: a warning naming each account found drifted.
    public func tick() {
        do {
            for record in try check.run(mayGoOn: { loop.mayGoOn }) {
                var fields = ["projection": record.projection, "position": record.position.map(String.init) ?? "",
                              "accounts": String(record.accounts.count), "events": String(record.events),
                              "seconds": record.finished.map { String(format: "%.3f", $0.seconds - record.started.seconds) } ?? ""]
                if !record.skipped.isEmpty { fields["skipped"] = String(record.skipped.count) }
                if let code = record.failureCode {
                    fields["code"] = code
                    fields["error"] = record.failure ?? ""
                    log(DriftCheckRecord.benignFailures.contains(code) ? .info : .warning, "drift check not completed", fields)
                } else if record.drifted.isEmpty {
                    log(.info, "drift check: the accounts compared agree with the log", fields)
                } else {
                    fields["drifted"] = record.drifted.joined(separator: ",")
                    fields["first"] = record.findings.first.map { "\($0.account) \($0.figure): live \($0.live), log \($0.refolded)" } ?? ""
                    log(.warning, "projection differs from the log", fields)
                }
            }
        } catch {
            log(.warning, "drift check not recorded", ["error": "\(error)"])
        }
    }
}
