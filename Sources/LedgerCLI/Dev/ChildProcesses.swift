import Foundation
import Glibc
import Observability
import Synchronization

/// The API and projector processes `ledger dev` runs and stops together.
///
/// Their log lines go to a file each, not to the terminal: a request log line per request
/// scrolled the banner (the URL, where the demo keys are) out of sight within seconds.
final class ChildProcesses: Sendable {
    private let children = Mutex<[(name: String, process: Process, log: String)]>([])
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Starts a child whose standard output and error are appended to `log`.
    func spawn(_ executable: String, _ arguments: [String], environment: [String: String], name: String, log: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if !FileManager.default.fileExists(atPath: log) {
            FileManager.default.createFile(atPath: log, contents: nil)
        }
        guard let output = FileHandle(forWritingAtPath: log) else { throw UsageError("cannot write \(log)") }
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        logger.info("started", ["process": .string(name), "pid": .int(Int(process.processIdentifier)), "log": .string(log)])
        children.withLock { $0.append((name, process, log)) }
    }

    /// The first child that is no longer running, with its exit status and log file.
    func firstExited() -> (name: String, status: Int32, log: String)? {
        children.withLock { list in
            list.first { !$0.process.isRunning }.map { ($0.name, $0.process.terminationStatus, $0.log) }
        }
    }

    /// The last `count` lines of a child's log, to show why it stopped.
    static func tail(of log: String, lines count: Int = 12) -> String {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(count).joined(separator: "\n")
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
