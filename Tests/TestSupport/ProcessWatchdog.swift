import Dispatch
import Foundation
import Glibc
import Synchronization

/// Kills a child process that runs past its time (SIGKILL), so that a hung child makes its
/// test fail, naming what hung, instead of holding the run until CI's limit. `fired` says
/// whether it had to.
public final class ProcessWatchdog: Sendable {
    private let killed = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    /// Starts watching a process that has been started (`run()`).
    public init(_ process: Process, seconds: Double) {
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard !done.load(ordering: .relaxed) else { return }
            killed.store(true, ordering: .relaxed)
            Glibc.kill(pid, SIGKILL)
        }
    }

    /// The process ended by itself (call once it has): the watchdog stands down.
    public func stop() { done.store(true, ordering: .relaxed) }

    /// Whether the process had to be killed.
    public var fired: Bool { killed.load(ordering: .relaxed) }

    /// Runs `body` (reading the child's pipes, say) and waits for `process`, which has
    /// been started, to exit, killing it past `seconds`; `killed` says whether it had to.
    public static func bounded<T>(_ process: Process, seconds: Double = 120,
                                  _ body: () throws -> T) rethrows -> (value: T, killed: Bool) {
        let watchdog = ProcessWatchdog(process, seconds: seconds)
        defer { watchdog.stop() }
        let value = try body()
        process.waitUntilExit()
        return (value, watchdog.fired)
    }
}
