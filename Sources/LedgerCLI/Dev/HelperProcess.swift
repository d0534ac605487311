import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a helper program (`initdb`, `pg_ctl`, `useradd`, …) to completion, optionally as
/// another account, and collects what it printed.
///
/// It spawns and reaps the child itself (`posix_spawn`, `waitpid`) instead of using
/// Foundation's `Process`, whose exit monitoring was seen to miss a child's exit and leave
/// `pg_ctl start` waiting forever on a zombie. Output goes to a temporary file rather than a
/// pipe: `pg_ctl start` leaves a server running behind it, and a pipe that a long-lived
/// descendant still held would never reach end-of-file; a file also cannot fill up and
/// stall the child the way an unread pipe can.
struct HelperProcess: Sendable {
    /// What a finished program left behind.
    struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that killed it.
        var status: Int32
        var output: String
        var succeeded: Bool { status == 0 }
    }

    /// The account to switch to, or nil to run as this process. Switching needs root.
    var user: String?

    init(user: String? = nil) {
        self.user = user
    }

    /// Runs `executable` with `arguments` in `directory` and waits for it.
    ///
    /// The working directory matters when switching accounts: PostgreSQL's programs look up
    /// their current directory, which fails when it is one the account cannot enter (a
    /// checkout under /root, say).
    func run(_ executable: String, _ arguments: [String], in directory: String) throws -> Outcome {
        let (program, argv) = try commandLine(executable, arguments, in: directory)
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("ledger-helper-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }

        var environment = ProcessInfo.processInfo.environment
        // English, locale-independent messages (they end up in errors), and no warnings
        // about a LANG the machine has no locale for.
        environment["LC_ALL"] = "C"
        let pid = try Self.spawn(program, [program] + argv,
                                 environment: environment.map { "\($0.key)=\($0.value)" }, output: outputPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw EmbeddedPostgresError(code: .directoryFailed,
                    message: "lost track of \(program) (pid \(pid)): \(String(cString: strerror(errno)))")
            }
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // The W* macros are not imported into Swift: the low 7 bits hold the signal that
        // ended the child (0 when it exited), the next 8 bits its exit status.
        let signal = status & 0x7f
        let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return Outcome(status: exitStatus, output: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Starts `path` with stdin from /dev/null, stdout and stderr into `output`, default
    /// signal handling, and no descriptor of ours beyond the three.
    private static func spawn(_ path: String, _ argv: [String], environment: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Ignored signals and a blocked mask survive exec; the server that pg_ctl leaves
        // running must not inherit whatever this process set up for itself.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if os(Linux)
        // Descriptors this process opened without close-on-exec must not leak into a server
        // that outlives us (an inherited lock or socket would stay held by it). glibc's
        // `posix_spawn_file_actions_addclosefrom_np` is not visible to Swift, so mark them
        // close-on-exec instead; this process never hands descriptors to children on purpose.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
        #else
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else {
            throw EmbeddedPostgresError(code: .directoryFailed, message: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// The program and arguments that run `executable` as `user`: `runuser` where it
    /// exists (util-linux, root only, no password, no login shell), `su` otherwise.
    ///
    /// The program is started by `/bin/sh`, which first enters `directory` (as the target
    /// account, so a folder it cannot enter fails loudly here): glibc's
    /// `posix_spawn_file_actions_addchdir_np` is not visible to Swift, and changing this
    /// process's own directory would race with its other threads. The script only execs its
    /// positional parameters, so no argument is ever re-parsed by a shell.
    private func commandLine(_ executable: String, _ arguments: [String], in directory: String) throws -> (String, [String]) {
        let inDirectory = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
        guard let user else { return ("/bin/sh", Array(inDirectory.dropFirst())) }
        if let runuser = Self.find("runuser", alsoIn: ["/usr/sbin", "/sbin"]) {
            return (runuser, ["-u", user, "--"] + inDirectory)
        }
        if let su = Self.find("su", alsoIn: ["/usr/bin", "/bin"]) {
            // `-s /bin/sh` because service accounts often have a nologin shell; `--` stops su
            // from reading the program's own options (`-D …`) as its own.
            return (su, ["-s", "/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", "--", user, directory, executable] + arguments)
        }
        throw EmbeddedPostgresError(code: .accountUnavailable,
            message: "running as root, but neither runuser nor su is available to run \(executable) as \(user)")
    }

    /// The first executable file called `name` on PATH or, failing that, in `alsoIn`.
    static func find(_ name: String, alsoIn extra: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + extra
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
