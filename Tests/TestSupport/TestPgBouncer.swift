import Foundation
import Glibc

/// A real PgBouncer in transaction pooling mode in front of the test cluster, on a port and
/// a configuration of its own (written to a folder under /tmp), stopped by its process id.
///
/// It pools every database of the cluster (`* =`) for the `logins` given, which it
/// authenticates with SCRAM from their passwords in its `auth_file` and logs in with on
/// the server. A missing `pgbouncer` fails the test that needs one: the test command
/// installs it (`scripts/install-deps.sh --tests`).
public final class TestPgBouncer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its configuration, authentication file and log.
    public let directory: String
    /// Server connections per login and database: few, so that clients share them.
    public let poolSize: Int
    private let pid: Int32
    /// The login of the admin console's read-only `SHOW` commands; in the auth file only.
    private static let statsLogin = "ledger_test_pgbouncer_stats"
    private let statsPassword = UUID().uuidString

    /// Starts one in front of the cluster of `cluster` (a superuser URL: its host and port),
    /// for `logins` (name and password), with `poolSize` server connections per login and
    /// database.
    public init(cluster: String, logins: [(user: String, password: String)], poolSize: Int = 4) throws {
        guard let executable = Self.executable() else {
            throw Failure(message: "pgbouncer is not installed: `scripts/install-deps.sh --tests` installs it (the test command runs it)")
        }
        guard let server = URLComponents(string: cluster), let serverPort = server.port else {
            throw Failure(message: "\(TestPostgres.urlVariable) has no port")
        }
        directory = "/tmp/ledger-test-pgbouncer-" + UUID().uuidString.prefix(8).lowercased()
        self.poolSize = poolSize
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        // Plain passwords: PgBouncer needs them to log in to the server for the client. The
        // logins are the tests' own, on a throwaway cluster; the folder is removed at the end.
        let users = logins.map { ($0.user, $0.password) } + [(Self.statsLogin, statsPassword)]
        try users.map { "\"\($0.0)\" \"\($0.1)\"\n" }.joined()
            .write(toFile: directory + "/userlist.txt", atomically: true, encoding: .utf8)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let candidate = 15_000 + Int.random(in: 0..<15_000)
            var lines = [
                "[databases]",
                "* = host=\(server.host ?? "127.0.0.1") port=\(serverPort)",
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                "listen_port = \(candidate)",
                "unix_socket_dir =",
                "pool_mode = transaction",
                "auth_type = scram-sha-256",
                "auth_file = \(directory)/userlist.txt",
                "stats_users = \(Self.statsLogin)",
                "default_pool_size = \(poolSize)",
                "max_client_conn = 200",
                "server_reset_query =",
            ]
            // PgBouncer refuses to run as root; it drops to the account PostgreSQL runs as.
            if geteuid() == 0 { lines.append("user = \(Self.serverAccount())") }
            try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/pgbouncer.ini", atomically: true, encoding: .utf8)
            let log = directory + "/pgbouncer.log"
            let started = try Self.spawn(executable, [directory + "/pgbouncer.ini"], log: log)
            let up = Poll.until(timeout: 10, interval: 0.02) {
                !Self.isRunning(started) || ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("process up")
            }
            if up && Self.isRunning(started) {
                port = candidate
                pid = started
                return
            }
            Self.end(started)
            lastError = Failure(message: "pgbouncer did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError ?? Failure(message: "no free port for pgbouncer")
    }

    /// `url` (a login of the cluster) through this PgBouncer: the same login and database,
    /// PgBouncer's address.
    public func url(_ url: String) -> String {
        var components = URLComponents(string: url)!
        components.host = "127.0.0.1"
        components.port = port
        return components.string!
    }

    /// What it logged (connections, errors).
    public var log: String { (try? String(contentsOfFile: directory + "/pgbouncer.log", encoding: .utf8)) ?? "" }

    /// The rows of an admin console `SHOW` (`SHOW CLIENTS`, `SHOW SERVERS`, `SHOW STATS`),
    /// each by its column names, read with psql: the console answers the simple protocol only.
    public func show(_ what: String) throws -> [[String: String]] {
        guard let psql = Self.find("psql") else { throw Failure(message: "psql is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: psql)
        process.arguments = ["-X", "-A", "-F", "\t", "-P", "footer=off", "-c", "SHOW \(what)",
                             "postgresql://\(Self.statsLogin):\(statsPassword)@127.0.0.1:\(port)/pgbouncer"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (data, killed) = ProcessWatchdog.bounded(process, seconds: 20) {
            (output.fileHandleForReading.readDataToEndOfFile(), errors.fileHandleForReading.readDataToEndOfFile())
        }
        guard !killed, process.terminationStatus == 0 else {
            throw Failure(message: "psql SHOW \(what) failed: \(String(decoding: data.1, as: UTF8.self))")
        }
        let lines = String(decoding: data.0, as: UTF8.self).split(separator: "\n").map { $0.components(separatedBy: "\t") }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { first, _ in first }) }
    }

    /// Stops it (by its process id: SIGTERM, its fast exit) and removes its folder.
    public func stop() {
        Self.end(pid)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts `executable ARGS` with its output appended to `log`, with no signal blocked
    /// and the shutdown signals at their defaults: a child inherits its parent's signal
    /// mask, and the test runner's threads block SIGTERM, which PgBouncer never unblocks.
    static func spawn(_ executable: String, _ arguments: [String], log: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw Failure(message: "cannot start \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Whether the child `pid` still runs (reaping it when it has ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Ends the child `pid`: SIGTERM, then SIGKILL if it is still there after 5 s; reaped.
    static func end(_ pid: pid_t) {
        guard isRunning(pid) else { return }
        kill(pid, SIGTERM)
        if !Poll.until(timeout: 5, interval: 0.02, { !isRunning(pid) }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static func executable() -> String? {
        find("pgbouncer", alsoIn: ["/usr/sbin", "/usr/local/sbin", "/usr/local/bin"])
    }

    static func find(_ name: String, alsoIn extra: [String] = []) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + extra).map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The account the test cluster's server runs as (`ledger pg` picks `postgres`, else
    /// `ledger-postgres`).
    static func serverAccount() -> String {
        getpwnam("postgres") != nil ? "postgres" : "ledger-postgres"
    }
}
