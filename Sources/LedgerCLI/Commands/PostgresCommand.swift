import Foundation

/// `ledger pg start|stop|crash|status|promote`: a local PostgreSQL cluster in a directory,
/// or a hot standby of one, for the test command, benchmarks and anyone who wants a
/// database without installing a service.
///
/// `start` prints only the URL on stdout, so that a script can write
/// `url=$(ledger pg start --dir "$dir" --port 54329)`; everything else goes to stderr.
public enum PostgresCommand: LedgerCommand {
    public static let name = "pg"
    public static let summary = "Start, stop or inspect a local PostgreSQL cluster in a directory (development and tests)."
    public static let usage = """
        usage: ledger pg start  --dir DIR [--port N] [--set NAME=VALUE ...] [--replica-of URL]
               ledger pg promote --dir DIR
               ledger pg stop   --dir DIR
               ledger pg crash  --dir DIR
               ledger pg status --dir DIR

        start   Creates the cluster in DIR when absent (initdb: UTF8, locale C, 127.0.0.1 and
                the unix socket only; a random superuser password, in DIR/superuser-password,
                which TCP logins need), starts it when it is not running, waits until it
                accepts connections and prints its superuser URL,
                postgresql://postgres:PASSWORD@127.0.0.1:PORT/postgres. A cluster already running in
                DIR is reused as it is (its settings are not changed). With --replica-of, a
                cluster that does not exist yet is copied from the server at URL
                (pg_basebackup) and runs as its hot standby: it streams its WAL and answers
                reads (LEDGER_READ_DATABASE_URLS, docs/scaling.md).
        promote Makes a standby a primary (pg_ctl promote) and waits until it takes writes.
        stop    Fast shutdown: sessions are disconnected, the server exits. No-op when stopped.
        crash   Immediate shutdown: every server process is killed at once, as in a crash,
                and the next start recovers from the WAL (for tests of what a crash leaves).
        status  Prints the URL and exits 0 when running; prints "stopped" and exits 3 when not.

        Options:
          --dir DIR         the cluster's own directory (created when missing)
          --port N          TCP port on 127.0.0.1 (default \(defaultPort))
          --set NAME=VALUE  a server setting, repeatable: --set fsync=off --set max_connections=300
          --replica-of URL  start: the primary to copy a new cluster from, as a standby

        As root, the server runs as the `postgres` account (or a `ledger-postgres` account it
        creates); if that account cannot enter the folders above DIR, the cluster is placed
        under /var/lib/ledger-postgres instead, and a note on stderr says where.
        """

    /// Off the default 5432 so that it never collides with a system-wide server.
    static let defaultPort = 54329

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: ["dir", "port", "set", "replica-of"])
        guard parsed.positionals.count == 1, let action = parsed.positionals.first else {
            throw UsageError(parsed.positionals.isEmpty ? "say start, stop, crash, status or promote" : "one action only, got \(parsed.positionals.joined(separator: " "))")
        }
        let directory = try parsed.require("dir")
        guard !directory.isEmpty else { throw UsageError("--dir may not be empty") }

        switch action {
        case "start":
            let port = try parsed.int("port", default: defaultPort)
            guard (1...65_535).contains(port) else { throw UsageError("--port must be between 1 and 65535, got \(port)") }
            var settings: [String: String] = [:]
            for pair in parsed.values("set") {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw UsageError("--set wants NAME=VALUE, got \(pair)")
                }
                settings[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            let cluster = EmbeddedPostgres(directory: directory, port: port, settings: settings)
            note(cluster)
            print(try cluster.start(replicaOf: parsed.value("replica-of")))
            return 0

        case "stop", "crash", "status", "promote":
            // They act on whatever runs in DIR, on whatever port: a port or settings given
            // here could only disagree with the server's own.
            guard parsed.value("port") == nil, parsed.values("set").isEmpty, parsed.value("replica-of") == nil else {
                throw UsageError("--port, --set and --replica-of only apply to start")
            }
            let cluster = EmbeddedPostgres(directory: directory, port: defaultPort)
            note(cluster)
            if action == "promote" {
                try cluster.promote()
                return 0
            }
            if action == "stop" || action == "crash" {
                try cluster.stop(mode: action == "crash" ? .immediate : .fast)
                return 0
            }
            guard let port = cluster.runningPort else {
                print("stopped")
                return 3
            }
            print(EmbeddedPostgres.url(port: port, database: "postgres", password: cluster.superuserPassword))
            return 0

        default:
            throw UsageError("unknown action \(action): say start, stop, crash, status or promote")
        }
    }

    private static func note(_ cluster: EmbeddedPostgres) {
        if let relocation = cluster.relocationNote {
            FileHandle.standardError.write(Data("ledger pg: note: \(relocation)\n".utf8))
        }
    }
}
