import Foundation
import Glibc
import Observability
import Synchronization

/// The API and projector processes `ledger dev` runs and stops together.
final class ChildProcesses: Sendable {
    private let children = Mutex<[(name: String, process: Process)]>([])
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func spawn(_ executable: String, _ arguments: [String], environment: [String: String], name: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        try process.run()
        logger.info("started", ["process": .string(name), "pid": .int(Int(process.processIdentifier))])
        children.withLock { $0.append((name, process)) }
    }

    /// The first child that is no longer running, with its exit status.
    func firstExited() -> (name: String, status: Int32)? {
        children.withLock { list in
            list.first { !$0.process.isRunning }.map { ($0.name, $0.process.terminationStatus) }
        }
    }

    /// SIGTERM to every child, then SIGKILL to those still running after 20 seconds.
    func stopAll() {
        let list = children.withLock { $0 }
        for child in list where child.process.isRunning { kill(child.process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(20)
        while list.contains(where: { $0.process.isRunning }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        for child in list where child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
    }
}
