import Dispatch
import Foundation
import Projections
import Synchronization

/// The real projector with every projection, on its own thread, until `stop`.
final class ProjectorThread: Sendable {
    private let projector: Projector
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(url: String) {
        projector = Projector(configuration: .init(conninfo: url, projections: AllProjections.all, batchSize: 100, pollInterval: 0.05),
                              log: { _, _, _ in })
        let thread = Thread { [self] in
            projector.run { self.stopRequested.load(ordering: .relaxed) }
            finished.signal()
        }
        thread.start()
    }

    func stop() {
        stopRequested.store(true, ordering: .relaxed)
        finished.wait()
    }
}
