import Foundation

/// A PostgreSQL cluster of a test's own (through `ledger pg`), for tests that crash or
/// reconfigure the server, which the shared test cluster must never be.
public final class TestCluster: Sendable {
    public let directory: String
    public let port: Int
    public let settings: [String]
    /// The superuser URL of the `postgres` database.
    public let url: String

    /// Creates and starts a cluster with `settings` (`name=value`) on a free port; with
    /// `primary`, a hot standby of it (pg_basebackup), streaming its WAL.
    public init(settings: [String] = [], replicaOf primary: TestCluster? = nil) throws {
        directory = "/tmp/ledger-test-cluster-" + UUID().uuidString.prefix(8).lowercased()
        self.settings = ["fsync=off", "full_page_writes=off"] + settings
        var lastError: (any Error)?
        for _ in 0..<5 {
            let candidate = 15_000 + Int.random(in: 0..<15_000)
            do {
                url = try Self.run(["pg", "start", "--dir", directory, "--port", String(candidate)]
                                   + self.settings.flatMap { ["--set", $0] } + (primary.map { ["--replica-of", $0.url] } ?? []))
                port = candidate
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? Failure(message: "no free port")
    }

    /// Kills every server process at once, as a crash does.
    public func crash() throws { _ = try Self.run(["pg", "crash", "--dir", directory]) }

    /// Starts the (stopped or crashed) server again; it recovers from its WAL.
    public func restart() throws {
        _ = try Self.run(["pg", "start", "--dir", directory, "--port", String(port)] + settings.flatMap { ["--set", $0] })
    }

    /// Promotes a standby to a primary.
    public func promote() throws { _ = try Self.run(["pg", "promote", "--dir", directory]) }

    /// Stops the server and deletes the cluster.
    public func destroy() {
        _ = try? Self.run(["pg", "stop", "--dir", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The superuser URL of database `name` on this cluster.
    public func url(database name: String) -> String {
        var components = URLComponents(string: url)!
        components.path = "/" + name
        return components.string!
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Runs `ledger ARGS` to completion; its trimmed stdout, or a failure with its stderr.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = try LedgerBinary.start(arguments)
        guard let status = process.wait(timeout: 120), status == 0 else {
            throw Failure(message: "ledger \(arguments.joined(separator: " ")) failed: \(process.errors)")
        }
        return process.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
