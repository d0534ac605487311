import Crypto
import Foundation
import Postgres
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL cluster living in a directory of its own, for development (`ledger dev`),
/// the test command and benchmarks.
///
/// Layout of the cluster directory, which belongs to the cluster as a whole:
///
///     data/           the cluster (PGDATA), made by initdb: UTF8, locale C, superuser `postgres`
///     data/ledger.conf  port, addresses and `settings`, rewritten before every start
///     superuser-password  the password of `postgres` (0600)
///     run/            the unix socket
///     postgres.log    the server's log
///     .lock           serialises start and stop between processes
///
/// The server listens on 127.0.0.1 and its unix socket only. Over TCP every login needs its
/// password (SCRAM): another account of the machine must not become the cluster's
/// superuser by connecting to its port. The superuser `postgres` gets a random password at
/// `initdb`, kept in `superuser-password` (mode 0600) beside `data/`, and the URLs this type
/// hands out carry it. The unix socket, in `run/` (mode 0700, the server account's), trusts
/// whoever can enter that folder: the account that owns the cluster. A cluster made before
/// passwords (trust on TCP) is given one at its next start. It is for one developer or one
/// test run, never for sharing.
///
/// **Root.** `initdb` and `postgres` refuse to run as root, and CI runs as root. A root
/// process therefore runs them as an unprivileged account (`runuser -u`, or `su`): the owner
/// of an existing cluster, else `postgres` (made by the Debian package), else a
/// `ledger-postgres` system account created on first use; it hands the cluster directory to
/// that account. The account must also be able to *enter* every folder above the cluster
/// directory. When it cannot (a checkout under /root, which is 0700), the cluster is placed
/// under `/var/lib/ledger-postgres/<name>-<hash of the requested path>` instead and
/// `relocationNote` says so. Loosening the permissions of someone's home folder was the
/// alternative, and is not ours to do; a fixed, deterministic place keeps `start`, `stop`
/// and `isRunning` agreeing on where the cluster is without any record of the move.
public final class EmbeddedPostgres: Sendable {
    /// The directory asked for, made absolute.
    public let directory: String
    /// Where the cluster really is: `directory`, or its replacement under
    /// `/var/lib/ledger-postgres` (see the type's documentation).
    public let clusterDirectory: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// Server settings (`fsync` → `off`, …) written to `data/ledger.conf` before each start.
    /// A cluster that is already running keeps the settings it was started with.
    public let settings: [String: String]

    /// The seconds `pg_ctl` waits for the server to start or stop; crash recovery of a large
    /// development cluster on a slow disk can take a while.
    private static let waitSeconds = 120
    /// Where clusters go when the server account cannot reach the requested directory.
    static let relocationRoot = "/var/lib/ledger-postgres"
    /// Settings this type decides itself; `--set` may not override them.
    static let managedSettings: Set<String> = [
        "port", "listen_addresses", "unix_socket_directories", "data_directory",
        "config_file", "hba_file", "ident_file", "include", "include_if_exists", "include_dir",
    ]

    /// - Parameters:
    ///   - directory: a directory for this cluster alone; created when missing.
    ///   - port: the TCP port on 127.0.0.1.
    ///   - settings: extra server settings, e.g. `["fsync": "off"]` for a throwaway test cluster.
    public init(directory: String, port: Int, settings: [String: String] = [:]) {
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        self.directory = absolute
        self.port = port
        self.settings = settings

        guard ServerAccount.processIsRoot else {
            clusterDirectory = absolute
            return
        }
        let relocated = Self.relocationRoot + "/" + Self.relocatedName(for: absolute)
        let account = Self.owner(ofCluster: absolute) ?? Self.owner(ofCluster: relocated) ?? ServerAccount.preferred()
        // An account still to be created belongs to no group that owns anything, so only
        // the "other" permission bits can let it through.
        let probe = account ?? ServerAccount(name: ServerAccount.dedicatedName, uid: .max, gid: .max, groups: [])
        clusterDirectory = probe.canTraverse(ancestorsOf: absolute) ? absolute : relocated
    }

    /// PGDATA.
    public var dataDirectory: String { clusterDirectory + "/data" }
    /// The folder holding the unix socket.
    public var socketDirectory: String { clusterDirectory + "/run" }
    /// The server's log file.
    public var logFile: String { clusterDirectory + "/postgres.log" }

    /// The file that holds the superuser's password.
    public var passwordFile: String { clusterDirectory + "/superuser-password" }

    /// The superuser's password; nil for a cluster not created or not secured yet.
    public var superuserPassword: String? {
        (try? String(contentsOfFile: passwordFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The superuser URL of the `postgres` database, password included.
    public var url: String { Self.url(port: port, database: "postgres", password: superuserPassword) }

    /// Says where the cluster went when it could not live in `directory`; nil when it does.
    public var relocationNote: String? {
        guard clusterDirectory != directory else { return nil }
        return "the PostgreSQL server cannot run as root and its account cannot enter the folders above \(directory), " +
            "so the cluster lives in \(clusterDirectory) instead"
    }

    /// Whether a server is running on this cluster (whatever port it listens on).
    public var isRunning: Bool { runningServer() != nil }

    /// The port the running server listens on, or nil when it is not running.
    public var runningPort: Int? { runningServer()?.port }

    /// Creates the cluster when absent, starts it when it is not running, waits until it
    /// accepts connections, and returns the superuser URL
    /// `postgresql://postgres:PASSWORD@127.0.0.1:PORT/postgres`. A server already running on
    /// this cluster is reused as it is.
    @discardableResult
    public func start() throws -> String { try start(replicaOf: nil) }

    /// Like `start()`, but a cluster that does not exist yet is made a **hot standby** of
    /// the server at `primary` (a superuser URL on this machine): `pg_basebackup
    /// --write-recovery-conf --wal-method=stream` copies it and leaves `standby.signal` and
    /// `primary_conninfo`, so that the server streams the primary's WAL and answers reads.
    /// An existing cluster starts as whatever it is (a standby, or a promoted primary).
    @discardableResult
    public func start(replicaOf primary: String?) throws -> String {
        let serverSettings = try validatedSettings()
        // Before anything is created (an account, a directory): without the programs there
        // is nothing to run.
        let binaries = try PostgresBinaries.locate(majorVersion: clusterMajorVersion)
        let account = try serverAccount(creating: true)
        try prepareClusterDirectory(for: account)
        return try withLock {
            if try waitForRunningServer() {
                try secureIfNeeded(account: account)
                return url
            }
            let runner = HelperProcess(user: account?.name)
            if clusterMajorVersion == nil {
                if let primary {
                    try copy(primary, with: binaries, runner: runner)
                } else {
                    try initialize(with: binaries, runner: runner, account: account)
                }
            }
            if superuserPassword != nil { try writeAccessRules(account: account) }
            try writeServerSettings(serverSettings, account: account)
            try makeDirectory(socketDirectory, account: account)
            rotateLogIfLarge()
            let logStart = Self.fileSize(logFile)
            let outcome = try runner.run(binaries.pgCtl, [
                "start", "-D", dataDirectory, "-l", logFile, "-w", "-t", String(Self.waitSeconds), "-s",
            ], in: clusterDirectory)
            guard outcome.succeeded, runningServer() != nil else {
                var message = "PostgreSQL did not start on 127.0.0.1:\(port) (cluster \(dataDirectory))"
                if !outcome.output.isEmpty { message += "\n\(outcome.output)" }
                let tail = Self.tail(of: logFile, from: logStart, lines: 30)
                message += tail.isEmpty ? "\n(the server log \(logFile) is empty)" : "\nlast lines of \(logFile):\n\(tail)"
                throw EmbeddedPostgresError(code: .startFailed, message: message)
            }
            try secureIfNeeded(account: account)
            return url
        }
    }

    /// How `stop` ends the server.
    public enum StopMode: String, Sendable {
        /// Open sessions are disconnected, their transactions rolled back, and a checkpoint written.
        case fast
        /// Every process is killed at once, as in a crash: the next start recovers from the WAL.
        case immediate
    }

    /// Stops the server (by default with a fast shutdown) and waits for it to exit. Does
    /// nothing when it is not running.
    public func stop(mode: StopMode = .fast) throws {
        guard FileManager.default.fileExists(atPath: dataDirectory) else { return }
        let account = try serverAccount(creating: false)
        try withLock {
            guard runningServer() != nil else { return }
            let binaries = try PostgresBinaries.locate(majorVersion: clusterMajorVersion)
            let outcome = try HelperProcess(user: account?.name).run(binaries.pgCtl, [
                "stop", "-D", dataDirectory, "-m", mode.rawValue, "-w", "-t", String(Self.waitSeconds), "-s",
            ], in: clusterDirectory)
            guard outcome.succeeded else {
                throw EmbeddedPostgresError(code: .stopFailed, message: "pg_ctl stop failed for \(dataDirectory): \(outcome.output)")
            }
        }
    }

    /// Promotes a standby to a primary (`pg_ctl promote`, waiting until it accepts writes).
    public func promote() throws {
        let account = try serverAccount(creating: false)
        try withLock {
            guard runningServer() != nil else {
                throw EmbeddedPostgresError(code: .promoteFailed, message: "no server is running in \(dataDirectory) to promote")
            }
            let binaries = try PostgresBinaries.locate(majorVersion: clusterMajorVersion)
            let outcome = try HelperProcess(user: account?.name).run(binaries.pgCtl, [
                "promote", "-D", dataDirectory, "-w", "-t", String(Self.waitSeconds), "-s",
            ], in: clusterDirectory)
            guard outcome.succeeded else {
                throw EmbeddedPostgresError(code: .promoteFailed, message: "pg_ctl promote failed for \(dataDirectory): \(outcome.output)")
            }
        }
    }

    /// Creates database `name` when it does not exist yet and returns its superuser URL.
    /// The server must be running.
    @discardableResult
    public func createDatabase(name: String) throws -> String {
        do {
            let connection = try PostgresConnection(conninfo: url)
            if try connection.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]).rowCount == 0 {
                let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                try connection.query("CREATE DATABASE \(quoted)")
            }
        } catch let error as PostgresError where error.sqlState == "42P04" {
            // Another process created it between our check and our CREATE: the goal is met.
        } catch {
            throw EmbeddedPostgresError(code: .createDatabaseFailed, message: "cannot create database \(name): \(error)")
        }
        return Self.url(port: port, database: name, password: superuserPassword)
    }

    // MARK: - Starting

    /// Checks `settings` and renders them as configuration-file lines, sorted by name so the
    /// file is the same for the same settings.
    private func validatedSettings() throws -> [String] {
        try settings.sorted { $0.key < $1.key }.map { name, value in
            let isName = name.first.map { $0.isLetter || $0 == "_" } == true
                && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
            guard isName else {
                throw EmbeddedPostgresError(code: .invalidSetting, message: "`\(name)` is not a PostgreSQL setting name")
            }
            guard !Self.managedSettings.contains(name.lowercased()) else {
                throw EmbeddedPostgresError(code: .invalidSetting, message: "`\(name)` is managed by the cluster itself (use the port option for the port)")
            }
            guard !value.contains(where: { $0.isNewline || $0 == "\0" }) else {
                throw EmbeddedPostgresError(code: .invalidSetting, message: "the value of `\(name)` may not contain a line break")
            }
            return "\(name) = \(Self.quoted(value))"
        }
    }

    /// Runs initdb, with a new random password for the superuser, and replaces its access
    /// rules with ours.
    private func initialize(with binaries: PostgresBinaries, runner: HelperProcess, account: ServerAccount?) throws {
        let password = Hex.encode(SecureRandom.bytes(24))
        // initdb reads the password from a file of the server account's, deleted at once.
        let passwordInput = clusterDirectory + "/initdb-password"
        try writePrivate(password + "\n", to: passwordInput, account: account)
        defer { unlink(passwordInput) }
        var arguments = [
            "-D", dataDirectory, "-U", "postgres", "-E", "UTF8", "--locale=C",
            "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=" + passwordInput,
        ]
        // A cluster whose server will not fsync gains nothing from initdb's fsync either,
        // and skipping it saves seconds on every throwaway test cluster.
        if let fsync = settings.first(where: { $0.key.lowercased() == "fsync" })?.value,
           ["off", "false", "no", "0"].contains(fsync.lowercased()) {
            arguments.append("--no-sync")
        }
        let outcome = try runner.run(binaries.initdb, arguments, in: clusterDirectory)
        guard outcome.succeeded else {
            throw EmbeddedPostgresError(code: .initdbFailed, message: "initdb failed for \(dataDirectory):\n\(outcome.output)")
        }
        try writePrivate(password + "\n", to: passwordFile, account: account)
        try writeAccessRules(account: account)
    }

    /// Our access rules: initdb's own file also admits ::1, where this server does not
    /// listen; ours names exactly the two ways in, and TCP wants a password.
    private func writeAccessRules(account: ServerAccount?) throws {
        try write("""
            # Written by ledger (EmbeddedPostgres) before every start: a local cluster for development and tests.
            # The unix socket (in a folder only the cluster's account may enter) is trusted;
            # TCP, on 127.0.0.1 only, wants the login's password (SCRAM).
            # TYPE  DATABASE     USER  ADDRESS        METHOD
            local   all          all                  trust
            host    all          all   127.0.0.1/32   scram-sha-256
            local   replication  all                  trust
            host    replication  all   127.0.0.1/32   scram-sha-256

            """, to: dataDirectory + "/pg_hba.conf", account: account)
    }

    /// A cluster made before passwords (trust on TCP, no password file) gets a random
    /// superuser password and our access rules, which the server then reloads. A standby
    /// has the password of its primary already (its copy of `pg_authid`).
    private func secureIfNeeded(account: ServerAccount?) throws {
        guard superuserPassword == nil else { return }
        let password = Hex.encode(SecureRandom.bytes(24))
        do {
            let connection = try PostgresConnection(conninfo: Self.url(port: port, database: "postgres", password: nil))
            try connection.setPassword(role: "postgres", password: password)
            try writePrivate(password + "\n", to: passwordFile, account: account)
            try writeAccessRules(account: account)
            try connection.query("SELECT pg_reload_conf()")
        } catch {
            throw EmbeddedPostgresError(code: .startFailed, message: "cannot give the cluster in \(dataDirectory) a superuser password: \(error)")
        }
    }

    /// Writes a file only its owner may read (0600): the server account's, as root.
    private func writePrivate(_ text: String, to path: String, account: ServerAccount?) throws {
        do {
            try PrivateFile.write(text, to: path)
        } catch {
            throw EmbeddedPostgresError(code: .directoryFailed, message: error.description)
        }
        if let account { try handOver(path, to: account) }
    }

    /// Copies the cluster at `primary` into `data/` as a standby of it.
    private func copy(_ primary: String, with binaries: PostgresBinaries, runner: HelperProcess) throws {
        guard let components = URLComponents(string: primary), let host = components.host, let port = components.port else {
            throw EmbeddedPostgresError(code: .basebackupFailed, message: "--replica-of wants a URL such as postgresql://postgres@127.0.0.1:54329/postgres, got \(primary)")
        }
        var conninfo = "host=\(host) port=\(port) user=\(components.user ?? "postgres")"
        if let password = components.password { conninfo += " password=\(password)" }
        // The connection string, password included, becomes the standby's primary_conninfo.
        let outcome = try runner.run(binaries.pgBasebackup, [
            "-d", conninfo, "-D", dataDirectory,
            "--write-recovery-conf", "--wal-method=stream", "--checkpoint=fast", "--no-sync",
        ], in: clusterDirectory)
        guard outcome.succeeded else {
            throw EmbeddedPostgresError(code: .basebackupFailed, message: "pg_basebackup from \(primary) failed for \(dataDirectory):\n\(outcome.output)")
        }
        // A standby refuses to recover with a lower setting of these than its primary's; the
        // copied ledger.conf is rewritten with this cluster's own settings, so they are kept
        // in a file of their own, read before ledger.conf (which may raise them).
        var inherited = "# Written by ledger (EmbeddedPostgres): the primary's settings a hot standby may not go below.\n"
        do {
            let connection = try PostgresConnection(conninfo: primary)
            for name in Self.standbyMinimums {
                inherited += "\(name) = \(Self.quoted(try connection.query("SELECT current_setting($1)", [name])[0].requireString(0)))\n"
            }
        } catch {
            throw EmbeddedPostgresError(code: .basebackupFailed, message: "cannot read the settings of the primary \(primary): \(error)")
        }
        let account = try serverAccount(creating: false)
        // A copy has its primary's roles, and so its superuser's password.
        if let password = components.password { try writePrivate(password + "\n", to: passwordFile, account: account) }
        try write(inherited, to: dataDirectory + "/ledger-standby.conf", account: account)
        let main = dataDirectory + "/postgresql.conf"
        guard let text = try? String(contentsOfFile: main, encoding: .utf8) else {
            throw EmbeddedPostgresError(code: .directoryFailed, message: "cannot read \(main)")
        }
        let include = "include_if_exists = 'ledger.conf'"
        try write(text.replacingOccurrences(of: include, with: "include_if_exists = 'ledger-standby.conf'\n" + include), to: main, account: account)
    }

    /// Settings a hot standby must have at least as high as its primary (PostgreSQL 15).
    static let standbyMinimums = ["max_connections", "max_prepared_transactions", "max_locks_per_transaction",
                                  "max_wal_senders", "max_worker_processes"]

    /// Writes `data/ledger.conf` and makes sure `postgresql.conf` includes it. A file, rather
    /// than `pg_ctl -o "-c …"`, because pg_ctl hands `-o` to a shell: a value with a space or
    /// a quote would be split or reinterpreted there.
    private func writeServerSettings(_ lines: [String], account: ServerAccount?) throws {
        let main = dataDirectory + "/postgresql.conf"
        let include = "include_if_exists = 'ledger.conf'"
        guard let text = try? String(contentsOfFile: main, encoding: .utf8) else {
            throw EmbeddedPostgresError(code: .directoryFailed, message: "cannot read \(main)")
        }
        if !text.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces) == include }) {
            try write(text + (text.hasSuffix("\n") ? "" : "\n") + "\n# Added by ledger (EmbeddedPostgres).\n\(include)\n",
                      to: main, account: account)
        }

        var conf = "# Written by ledger (EmbeddedPostgres) before every start: edits are overwritten.\n"
        conf += "listen_addresses = '127.0.0.1'\n"
        conf += "port = \(port)\n"
        // The socket path must fit in sockaddr_un (104 bytes on macOS, 108 on Linux, with the
        // terminating NUL); a cluster in a deep folder goes without a socket and is reached
        // over TCP only, which is all the URL uses.
        let socket = socketDirectory + "/.s.PGSQL.\(port)"
        if socket.utf8.count < 104 {
            conf += "unix_socket_directories = \(Self.quoted(socketDirectory))\n"
        } else {
            conf += "# The socket path would be too long for sockaddr_un: TCP only.\nunix_socket_directories = ''\n"
        }
        for line in lines { conf += line + "\n" }
        try write(conf, to: dataDirectory + "/ledger.conf", account: account)
    }

    /// Whether a server is running and ready, waiting for one that is starting up (another
    /// process's start, or crash recovery). False when none is running.
    private func waitForRunningServer() throws -> Bool {
        let deadline = Date().addingTimeInterval(TimeInterval(Self.waitSeconds))
        while let server = runningServer() {
            guard server.port == port else {
                throw EmbeddedPostgresError(code: .portMismatch, message:
                    "the cluster in \(dataDirectory) is already running on port \(server.port), not \(port); " +
                    "stop it first (ledger pg stop --dir \(directory)) or use port \(server.port)")
            }
            if server.isReady { return true }
            guard Date() < deadline else {
                throw EmbeddedPostgresError(code: .startFailed, message:
                    "the server of \(dataDirectory) is running but did not become ready within \(Self.waitSeconds) s\n" +
                    "last lines of \(logFile):\n\(Self.tail(of: logFile, from: 0, lines: 30))")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    // MARK: - The running server

    /// What `postmaster.pid` says about a live server.
    private struct RunningServer {
        var port: Int
        /// Accepting connections: status "ready", or "standby" for a hot standby.
        var isReady: Bool
    }

    /// Reads `postmaster.pid` (pid, data directory, start time, port, socket directory,
    /// listen address, shared memory key, status) and checks that its process is alive and
    /// is a PostgreSQL server: after a crash or a reboot the file stays behind, and its pid
    /// may since have been given to an unrelated process.
    private func runningServer() -> RunningServer? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.count >= 4, let pid = pid_t(lines[0]), pid > 0, let port = Int(lines[3]) else { return nil }
        guard kill(pid, 0) == 0 || errno == EPERM else { return nil }
        if let command = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
           !command.hasPrefix("postgres") {
            return nil
        }
        let status = lines.count > 7 ? lines[7] : ""
        return RunningServer(port: port, isReady: status == "ready" || status == "standby")
    }

    /// The major version the cluster was created with, or nil when there is no cluster yet.
    private var clusterMajorVersion: String? {
        (try? String(contentsOfFile: dataDirectory + "/PG_VERSION", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Accounts, files and locking

    /// The account to run the server programs as: nil when this process is not root.
    private func serverAccount(creating: Bool) throws -> ServerAccount? {
        guard ServerAccount.processIsRoot else { return nil }
        if let owner = Self.owner(ofCluster: clusterDirectory) { return owner }
        if let account = ServerAccount.preferred() { return account }
        guard creating else {
            throw EmbeddedPostgresError(code: .accountUnavailable, message: "no `\(ServerAccount.preferredName)` account to run pg_ctl as")
        }
        return try ServerAccount.ensureDedicated()
    }

    /// The non-root owner of an existing cluster's data directory: a cluster made by one
    /// account only opens for that account.
    private static func owner(ofCluster directory: String) -> ServerAccount? {
        var info = stat()
        guard stat(directory + "/data", &info) == 0, info.st_uid != 0 else { return nil }
        return ServerAccount.withUID(UInt32(info.st_uid))
    }

    /// Creates the cluster directory (and any missing parents, enterable by everyone) and,
    /// as root, hands it to the server account.
    private func prepareClusterDirectory(for account: ServerAccount?) throws {
        let manager = FileManager.default
        var missing: [String] = []
        var path = clusterDirectory
        while !path.isEmpty, path != "/", !manager.fileExists(atPath: path) {
            missing.insert(path, at: 0)
            path = (path as NSString).deletingLastPathComponent
        }
        for directory in missing {
            guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
                throw Self.systemError("cannot create \(directory)")
            }
            // The umask may have narrowed 0755, and the server account must pass through
            // these folders; the cluster directory itself is narrowed again by the chown below.
            if account != nil, directory != clusterDirectory { chmod(directory, 0o755) }
        }
        if let account {
            try handOver(clusterDirectory, to: account)
            chmod(clusterDirectory, 0o700)
        }
    }

    private func makeDirectory(_ path: String, account: ServerAccount?) throws {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Self.systemError("cannot create \(path)") }
        if let account { try handOver(path, to: account) }
    }

    /// Writes a file in place (keeping the owner of an existing file) and, as root, gives it
    /// to the server account; configuration files are private to it.
    private func write(_ text: String, to path: String, account: ServerAccount?) throws {
        do {
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        } catch {
            throw EmbeddedPostgresError(code: .directoryFailed, message: "cannot write \(path): \(error)")
        }
        if let account {
            try handOver(path, to: account)
            chmod(path, 0o600)
        }
    }

    private func handOver(_ path: String, to account: ServerAccount) throws {
        guard chown(path, uid_t(account.uid), gid_t(account.gid)) == 0 else {
            throw Self.systemError("cannot give \(path) to the account \(account.name)")
        }
    }

    /// Holds an exclusive `flock` on `.lock` while `body` runs, so that two processes (a
    /// `ledger dev` and a test run, say) never initdb or start the same cluster together.
    /// The descriptor is close-on-exec: a server started inside must not inherit, and keep,
    /// the lock.
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        let path = clusterDirectory + "/.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.systemError("cannot open \(path)") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.systemError("cannot lock \(path)") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Keeps a development cluster's log from growing without end: past 16 MiB the old log
    /// becomes `postgres.log.1` (replacing the previous one).
    private func rotateLogIfLarge() {
        guard Self.fileSize(logFile) > 16 << 20 else { return }
        let old = logFile + ".1"
        try? FileManager.default.removeItem(atPath: old)
        try? FileManager.default.moveItem(atPath: logFile, toPath: old)
    }

    // MARK: - Helpers

    /// The superuser's URL; the password (hex, so it needs no escaping) when there is one.
    static func url(port: Int, database: String, password: String?) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let name = database.addingPercentEncoding(withAllowedCharacters: allowed) ?? database
        return "postgresql://postgres\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/\(name)"
    }

    /// A configuration-file string literal: quotes doubled, backslashes escaped.
    private static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `<last folder name>-<12 hex digits of SHA-256 of the path>`: readable, and distinct
    /// for distinct requested paths.
    private static func relocatedName(for path: String) -> String {
        let base = (path as NSString).lastPathComponent.map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || "-._".contains(character)) ? character : "_"
        }
        return String(base) + "-" + String(Hex.encode(SHA256.hash(Array(path.utf8))).prefix(12))
    }

    private static func fileSize(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    /// The last `lines` lines written to `path` after byte `offset`.
    private static func tail(of path: String, from offset: UInt64, lines: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        // A failed start writes a handful of lines; reading at most the last 64 KiB of them
        // keeps a huge log from being loaded whole.
        let end = (try? handle.seekToEnd()) ?? 0
        let start = max(offset, end > 65_536 ? end - 65_536 : 0)
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return "" }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    private static func systemError(_ what: String) -> EmbeddedPostgresError {
        EmbeddedPostgresError(code: .directoryFailed, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
