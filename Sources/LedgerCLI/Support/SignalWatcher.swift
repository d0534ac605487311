import Foundation
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a flag and callbacks, for commands that run until stopped.
///
/// `install()` must run before the command starts any thread: it blocks the signals in the
/// calling thread, threads created later inherit the mask, and one dedicated thread takes
/// them with `sigwait`. No work happens inside a signal handler.
public final class SignalWatcher: Sendable {
    public static let shared = SignalWatcher()

    private let stopRequested = Atomic<Bool>(false)
    private let handlers = Mutex<[@Sendable (Int32) -> Void]>([])
    private let installed = Atomic<Bool>(false)

    /// Whether SIGINT or SIGTERM has arrived.
    public var shouldStop: Bool { stopRequested.load(ordering: .acquiring) }

    /// Adds a callback run (on the watcher's thread) for each SIGINT or SIGTERM.
    public func onSignal(_ handler: @escaping @Sendable (Int32) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    public func install() {
        guard installed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let signals = set
        let thread = Thread { [self] in
            var waitSet = signals
            while true {
                var signal: Int32 = 0
                guard sigwait(&waitSet, &signal) == 0 else { continue }
                stopRequested.store(true, ordering: .releasing)
                for handler in handlers.withLock({ $0 }) { handler(signal) }
            }
        }
        thread.name = "ledger-signals"
        thread.start()
    }

    /// Blocks the calling thread until a stop signal arrives.
    public func waitForStop() {
        while !shouldStop { Thread.sleep(forTimeInterval: 0.1) }
    }
}
