import Foundation
import Observability
import Synchronization

/// A thread that calls `ServerContext.sweep` every `interval` until stopped: the clock
/// behind the head and body deadlines and the deadlines of parked requests.
final class Sweeper: Sendable {
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)

    init(interval: Duration, context: ServerContext) {
        let seconds = interval.seconds
        let thread = Thread { [self] in
            while !stopped.withLock({ $0 }) {
                _ = wake.wait(timeout: .now() + seconds)
                context.sweep(now: .now)
            }
            exited.signal()
        }
        thread.name = "http-sweeper"
        thread.start()
    }

    func stop() {
        let first = stopped.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        guard first else { return }
        wake.signal()
        exited.wait()
    }
}
