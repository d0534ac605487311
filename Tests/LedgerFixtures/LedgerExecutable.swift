import Foundation
import Testing
import TestSupport

/// The real `ledger` executable. It is found, in this order, at LEDGER_BINARY, beside the
/// test bundle (the executable of the very build under test, whatever --scratch-path the
/// build used), or where `LedgerBinary` looks (.build/debug/ledger).
public enum LedgerExecutable {
    public static func path() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["LEDGER_BINARY"], !configured.isEmpty { return configured }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ledger").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return try LedgerBinary.path()
    }

    /// Runs `ledger ARGUMENTS` to completion; its status, stdout and stderr.
    public static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path())
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting, so that a full pipe cannot block the child.
        let ((out, err), killed) = ProcessWatchdog.bounded(process) {
            (output.fileHandleForReading.readDataToEndOfFile(), errors.fileHandleForReading.readDataToEndOfFile())
        }
        if killed { Issue.record("ledger \(arguments.joined(separator: " ")) ran past 120 s and was killed") }
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
