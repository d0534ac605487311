import Dispatch
import Foundation
import Synchronization

/// A look every `interval` seconds on a thread of its own, taken only while this process
/// is the active projector: the schedule of the jobs that run beside the projector, one per
/// database (the App Store sync, the refund requests' answers). `stop` wakes the thread and
/// waits for the look in flight; a look asks `isStopped` between its steps.
final class ActiveProjectorLoop: Sendable {
    private let name: String
    private let interval: Double
    private let isActive: @Sendable () -> Bool
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, interval: Double, isActive: @escaping @Sendable () -> Bool) {
        self.name = name
        self.interval = interval
        self.isActive = isActive
    }

    var isStopped: Bool { stopped.withLock { $0 } }

    /// Whether a step may go on: not stopped, and still the active projector.
    var mayGoOn: Bool { !isStopped && isActive() }

    /// Starts looking: `look` runs at once and then every `interval`, while active.
    func start(_ look: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            defer { finished.signal() }
            while !isStopped {
                if isActive() { look() }
                _ = wake.wait(timeout: .now() + interval)
            }
        }
        thread.name = name
        thread.start()
    }

    /// Stops, after the look in flight; false when it was stopped already.
    @discardableResult
    func stop() -> Bool {
        let wasRunning = stopped.withLock { s -> Bool in
            defer { s = true }
            return !s
        }
        guard wasRunning else { return false }
        wake.signal()
        finished.wait()
        return true
    }
}
