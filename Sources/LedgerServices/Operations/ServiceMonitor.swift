import Foundation
import Observability
import Postgres
import Synchronization

/// Checks readiness in the background (database, migrations, projections) so that
/// `/readyz` (public and operations) and `/metrics` answer from memory, at once, whatever the database does: a
/// load balancer's probe must not queue behind the requests it is meant to judge.
///
/// A check that has not completed for `staleAfter` seconds (the database hangs) makes
/// the service not ready, saying so.
public final class ServiceMonitor: Sendable {
    public struct Snapshot: Sendable {
        public var readiness: Readiness
        public var status: ProjectionStatus?
        public var checkedAt: ContinuousClock.Instant
    }

    private let check: @Sendable () -> (Readiness, ProjectionStatus?)
    private let interval: Double
    private let latest = Mutex<Snapshot?>(nil)
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    public init(interval: Double, check: @escaping @Sendable () -> (Readiness, ProjectionStatus?)) {
        self.interval = interval
        self.check = check
    }

    public var staleAfter: Double { max(3, interval * 3) }

    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            while !stopped.withLock({ $0 }) {
                let (readiness, status) = check()
                latest.withLock { $0 = Snapshot(readiness: readiness, status: status, checkedAt: .now) }
                _ = wake.wait(timeout: .now() + interval)
            }
            exited.signal()
        }
        thread.name = "service-monitor"
        thread.start()
    }

    public func stop() {
        let running = stopped.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        guard running, started.load(ordering: .relaxed) else { return }
        wake.signal()
        exited.wait()
    }

    /// The last readiness, or a not-ready answer when there is none yet or it is stale.
    public var readiness: Readiness {
        guard let snapshot = latest.withLock({ $0 }) else {
            return .unknown("the first readiness check has not completed yet", reason: Readiness.Reason.notCheckedYet)
        }
        let age = ContinuousClock.now - snapshot.checkedAt
        if age > .milliseconds(Int64(staleAfter * 1000)) {
            return .unknown("the last readiness check completed \(age.components.seconds) s ago: the database does not answer",
                            reason: Readiness.Reason.databaseUnavailable)
        }
        return snapshot.readiness
    }

    /// Where the projections stood at the last check that reached the database.
    public var projectionStatus: ProjectionStatus? { latest.withLock { $0?.status } }
}
