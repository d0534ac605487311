import BenchHTTP
import Foundation
import Glibc
import LedgerJSON
import Postgres
import TestSupport

/// A Patroni cluster of a test's own: one etcd member and three PostgreSQL nodes under
/// Patroni, started and stopped by the operator's script, `ops/patroni/cluster.sh`, on the
/// ports it defaults to. Its state is read from Patroni's REST API, as an operator's tools do.
final class PatroniCluster: Sendable {
    struct Node: Sendable, Equatable {
        var name: String
        var port: Int
        var apiPort: Int
    }

    /// A member as `GET /cluster` shows it.
    struct Member: Sendable, Equatable {
        var name: String
        /// `leader`, `sync_standby` or `replica`.
        var role: String
        /// `running`, `stopped`, `starting`, …
        var state: String
        var timeline: Int64?
    }

    let directory: String
    /// The ports are the script's defaults (PATRONI_PG_PORTS, PATRONI_API_PORTS).
    let nodes = [Node(name: "node1", port: 25475, apiPort: 25486), Node(name: "node2", port: 25476, apiPort: 25487),
                 Node(name: "node3", port: 25477, apiPort: 25488)]
    /// The superuser's URL of database `postgres` on every node at once, libpq keeping the
    /// one that takes writes (`target_session_attrs=read-write`).
    let url: String

    static let script = TestDatabase.repositoryRoot + "/ops/patroni/cluster.sh"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the cluster and waits until a leader has a synchronous standby and every
    /// replica streams. A missing etcd or patroni is a failure, never a skip: the test
    /// command installs them (scripts/install-deps.sh --tests).
    init() throws {
        // /tmp: as root, Patroni runs as the `postgres` account, which must enter the folder.
        let directory = "/tmp/ledger-test-patroni-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            // Durability off: nothing of this cluster outlives the test, and a kill -9 of
            // PostgreSQL leaves the machine's page cache, hence the data, as it was.
            url = try Self.run(["bash", Self.script, "start", directory], environment: ["PATRONI_FSYNC": "off"], timeout: 150)
        } catch {
            Self.stop(directory)
            throw error
        }
        self.directory = directory
    }

    /// Stops etcd, Patroni and PostgreSQL by the PIDs the script recorded, and deletes the cluster.
    func stop() { Self.stop(directory) }

    private static func stop(_ directory: String) {
        do {
            _ = try run(["bash", script, "stop", directory], timeout: 90)
        } catch {
            print("patroni: could not stop the cluster in \(directory): \(error)")
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The superuser's URL of database `postgres` on `node` alone.
    func superuserURL(of node: Node) throws -> String {
        guard var components = URLComponents(string: url) else { throw Failure(description: "not a URL: \(url)") }
        components.host = "127.0.0.1"
        components.port = node.port
        components.queryItems = [URLQueryItem(name: "connect_timeout", value: "2")]
        guard let single = components.string else { throw Failure(description: "no URL for \(node.name)") }
        return single
    }

    func node(_ name: String) -> Node? { nodes.first { $0.name == name } }

    /// Waits until every node has replayed what the leader has written so far (a database
    /// and the roles just made).
    func waitUntilReplayed(timeout: Double = 30) throws -> Bool {
        let lsn = try PostgresConnection(conninfo: url).query("SELECT pg_current_wal_lsn()::text")[0].requireString(0)
        return try Poll.until(timeout: timeout, interval: 0.05) {
            try nodes.allSatisfy { node in
                let connection = try PostgresConnection(conninfo: try superuserURL(of: node))
                return try connection.query("SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn", [lsn])[0].bool(0) == true
            }
        }
    }

    /// The cluster as the first node's REST API that answers shows it; nil when none answers.
    func members() -> [Member]? {
        for node in nodes {
            guard let body = try? get("/cluster", from: node), let list = body["members"]?.arrayValue else { continue }
            return list.compactMap { m in
                guard let name = m["name"]?.stringValue, let role = m["role"]?.stringValue else { return nil }
                return Member(name: name, role: role, state: m["state"]?.stringValue ?? "", timeline: m["timeline"]?.int64Value)
            }
        }
        return nil
    }

    /// The running leader, when there is one.
    func leader() -> Member? { members()?.first { $0.role == "leader" && $0.state == "running" } }

    /// Waits for a running leader other than `previous`, and returns it.
    func waitForLeader(otherThan previous: String? = nil, timeout: Double = 60) -> Member? {
        Poll.value(timeout: timeout, interval: 0.05) { leader().flatMap { $0.name == previous ? nil : $0 } }
    }

    /// Waits until `name` is a running replica of the leader and streams from it
    /// (`pg_stat_replication` on the leader, through Patroni's `GET /`).
    func waitUntilStreaming(_ name: String, timeout: Double = 60) -> Bool {
        Poll.until(timeout: timeout, interval: 0.1) {
            guard let members = members(), let leader = members.first(where: { $0.role == "leader" && $0.state == "running" }),
                  let me = members.first(where: { $0.name == name }), me.name != leader.name, me.state == "running",
                  let node = node(leader.name), let status = try? get("/", from: node) else { return false }
            return status["replication"]?.arrayValue?.contains {
                $0["application_name"]?.stringValue == name && $0["state"]?.stringValue == "streaming"
            } ?? false
        }
    }

    /// The PID of the postmaster of `name` (the first line of its `postmaster.pid`).
    func postmasterPID(of name: String) throws -> pid_t {
        let file = "\(directory)/\(name)/data/postmaster.pid"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        guard let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }) else { throw Failure(description: "no PID in \(file)") }
        return pid
    }

    /// `kill -9` of the postmaster of `name`: PostgreSQL dies as in a crash; Patroni lives on.
    func killPostmaster(of name: String) throws {
        let pid = try postmasterPID(of: name)
        guard kill(pid, SIGKILL) == 0 else { throw Failure(description: "kill -9 \(pid) failed: errno \(errno)") }
    }

    /// `patronictl switchover`, from the leader `from` to `to` (which synchronous mode
    /// requires to be the synchronous standby), without asking.
    func switchover(from: String, to: String) throws -> String {
        try Self.run(["patronictl", "-c", "\(directory)/node1/patroni.yml", "switchover", "--leader", from, "--candidate", to, "--force"],
                     timeout: 60)
    }

    /// What Patroni (and the PostgreSQL it ran) logged on `name`.
    func log(of name: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(name)/patroni.log", encoding: .utf8)) ?? ""
    }

    private func get(_ path: String, from node: Node) throws -> JSONValue {
        let response = try HTTPClient(host: "127.0.0.1", port: node.apiPort, timeout: 2).send(method: "GET", path: path)
        return try JSONValue.parse(response.body)
    }

    /// Runs a program (found on PATH) to completion within `timeout` seconds; its trimmed
    /// standard output, or a failure naming its exit and its standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("patroni-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("stdout"), err = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        if !Poll.until(timeout: timeout, interval: 0.02, { !process.isRunning }) {
            process.terminate()
            process.waitUntilExit()
        }
        let output = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)):\n\(errors)\(output)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
