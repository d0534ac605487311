import Dispatch
import Foundation
import Projections
import Synchronization

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

    /// Stops the projector and waits for its thread to end. Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        stopRequested.store(true, ordering: .relaxed)
        finished.wait()
    }

    deinit { stop() }
}
