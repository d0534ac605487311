import Foundation
import Glibc

/// The built `ledger` executable, for tests that need real processes (projector crash and
/// takeover, `ledger verify`, the HTTP server end to end).
public enum LedgerBinary {
    public static func path() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["LEDGER_BINARY"] { return configured }
        let root = TestDatabase.repositoryRoot
        for candidate in [".build/debug/ledger", ".build/x86_64-unknown-linux-gnu/debug/ledger", ".build/release/ledger"] {
            let path = root + "/" + candidate
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Missing()
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "the ledger executable is not built: run `swift build` first (scripts/test.sh does)" }
    }

    /// Starts `ledger ARGS` with extra environment; stdout and stderr go to files under a
    /// temporary folder so a test can read what the process logged.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> LedgerProcess {
        try LedgerProcess(executable: path(), arguments: arguments, environment: environment)
    }

    /// Starts `ledger-bench ARGS`, the benchmarks' executable beside `ledger`.
    public static func startBench(_ arguments: [String], environment: [String: String] = [:]) throws -> LedgerProcess {
        let bench = URL(fileURLWithPath: try path()).deletingLastPathComponent().appendingPathComponent("ledger-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else { throw Missing() }
        return try LedgerProcess(executable: bench, arguments: arguments, environment: environment)
    }
}

/// A running `ledger` process started by a test.
public final class LedgerProcess: @unchecked Sendable {
    public let process: Process
    public let outputPath: String
    public let errorPath: String
    private let directory: URL

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        directory = dir
        outputPath = dir.appendingPathComponent("stdout").path
        errorPath = dir.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // The development profile by name, as `ledger dev` gives its processes: unset means
        // production (docs/security.md). A test of the production profile says so.
        env["LEDGER_ENVIRONMENT"] = env["LEDGER_ENVIRONMENT"] ?? "development"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
    }

    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    public var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Waits for the process to exit (up to `timeout` seconds) and returns its status, or nil.
    @discardableResult
    public func wait(timeout: Double = 60) -> Int32? {
        Poll.until(timeout: timeout, interval: 0.02) { !process.isRunning }
        return process.isRunning ? nil : process.terminationStatus
    }

    public func kill(signal: Int32 = SIGKILL) {
        if process.isRunning { Glibc.kill(process.processIdentifier, signal) }
    }

    // The folder holds only this process's output, which a test reads while it holds the
    // process: once the process is gone, so is the reason to keep it.
    deinit {
        kill()
        if process.isRunning { process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }
}
