import Dispatch
import Foundation
import ProjectionEngine
import Projections
import Synchronization
import Testing

/// The real projector on a thread of the test process, until `stop()`.
public final class ProjectorThread: Sendable {
    public let projector: Projector
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    public init(url: String, projections: [any Projection] = AllProjections.all, batchSize: Int = 100, pollInterval: Double = 0.05,
                archiveDirectory: String? = nil) {
        projector = Projector(configuration: .init(conninfo: url, projections: projections, batchSize: batchSize,
                                                   pollInterval: pollInterval, archiveDirectory: archiveDirectory),
                              log: { _, _, _ in })
        let thread = Thread { [self] in
            projector.run { self.stopRequested.load(ordering: .relaxed) }
            finished.signal()
        }
        thread.start()
    }

    /// Stops the projector and waits for its thread to end (a minute at most: a projector
    /// that does not stop is a failure of the test, named, not a hang of the run). Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        stopRequested.store(true, ordering: .relaxed)
        if finished.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("the projector's thread did not stop within 60 s")
        }
    }

    deinit { stop() }
}
