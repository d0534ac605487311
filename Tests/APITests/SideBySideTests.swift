import BenchHTTP
import Foundation
import Glibc
import LedgerJSON
import Postgres
import Testing
import TestSupport
@testable import LedgerCLI

/// Issue 50, "Two instances side by side" and "`ledger dev` prints ready when `/readyz` is
/// 200": a second `ledger dev` of another data directory runs beside the first or is
/// refused at once naming the settings to change; commands find the dev database and the
/// migrations from any folder of the clone and through PATH, and every miss names the
/// settings and places looked at; a refused production start exits cleanly.
@Suite("Two instances side by side", .bounded)
struct SideBySideTests {
    /// A listening socket on 127.0.0.1, on a port the kernel picks: a port "taken by
    /// another program".
    final class Held {
        let descriptor: Int32
        let port: Int
        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
            }
            guard bound, listen(descriptor, 64) == 0 else { throw Failure(text: "cannot hold a port") }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            port = Int(UInt16(bigEndian: address.sin_port))
        }
        /// Connections made to it (and not accepted yet).
        func acceptAll() -> Int {
            var count = 0
            while case let client = accept(descriptor, nil, nil), client >= 0 {
                close(client)
                count += 1
            }
            return count
        }
        deinit { close(descriptor) }
    }

    struct Failure: Error, CustomStringConvertible { var text: String; var description: String { text } }

    /// Runs `executable ARGS` in `directory` with exactly `environment` (plus PATH and HOME),
    /// to its end.
    static func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String],
                    timeout: Double = 60) throws -> (status: Int32, output: String, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let inherited = ProcessInfo.processInfo.environment
        process.environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp"].merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        Poll.until(timeout: timeout, interval: 0.02) { !process.isRunning }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        return (process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A folder under /tmp (outside any clone: no Package.swift or .git above it).
    static func scratch(_ name: String) throws -> String {
        let path = "/tmp/ledger-\(name)-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return path
    }

    @Test("from a folder deep in a clone, commands find .ledger/demo.json and sql/ at its root; outside, the error names the setting and the files looked at")
    func commandsFromAnyFolderOfTheClone() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let clone = try Self.scratch("clone")
        defer { try? FileManager.default.removeItem(atPath: clone) }
        try "// a clone's root\n".write(toFile: clone + "/Package.swift", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: clone + "/sql", withDestinationPath: TestDatabase.migrationsDirectory)
        try FileManager.default.createDirectory(atPath: clone + "/.ledger", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: clone + "/docs/deeper", withIntermediateDirectories: true)
        let demo: JSONValue = ["database_url": .string(db.writerURL), "admin_database_url": .string(db.superuserURL)]
        try demo.prettyText().write(toFile: clone + "/.ledger/demo.json", atomically: true, encoding: .utf8)
        let ledger = try LedgerBinary.path()

        let status = try Self.run(ledger, ["migrate", "--status"], in: clone + "/docs/deeper", environment: [:])
        #expect(status.status == 0, "\(status.errors)")
        #expect(status.errors.contains("using the dev cluster of \(clone)/.ledger/demo.json"), "\(status.errors)")
        let verify = try Self.run(ledger, ["verify"], in: clone + "/docs", environment: [:])
        #expect(verify.status == 0, "\(verify.errors)")
        #expect(verify.errors.contains("development profile"), "found there, the clone's commands run as development: \(verify.errors)")

        // Outside any clone: nothing above the working directory is looked at, and the
        // error says what was looked for, and where.
        let outside = try Self.scratch("outside")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let missing = try Self.run(ledger, ["verify"], in: outside, environment: [:])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("DATABASE_URL is not set, and no demo.json of `ledger dev` was found (LEDGER_DATA_DIR is unset: looked for .ledger/demo.json in the working directory, which is in no clone: \(outside)/.ledger/demo.json)"),
                "\(missing.errors)")
        let given = try Self.run(ledger, ["verify"], in: outside, environment: ["LEDGER_DATA_DIR": outside + "/nowhere"])
        #expect(given.status == 1)
        #expect(given.errors.contains("(LEDGER_DATA_DIR is \(outside)/nowhere; looked at \(outside)/nowhere/demo.json)"), "\(given.errors)")
    }

    @Test("`ledger migrate` found through PATH finds the migrations beside its build; a LEDGER_SQL_DIR without them is named")
    func migrateThroughPath() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let bin = try Self.scratch("bin")
        defer { try? FileManager.default.removeItem(atPath: bin) }
        try FileManager.default.createSymbolicLink(atPath: bin + "/ledger", withDestinationPath: try LedgerBinary.path())
        // argv[0] is a bare `ledger`, found through PATH, in a folder outside any clone.
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let elsewhere = try Self.scratch("cwd")
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let migrate = try Self.run("/usr/bin/env", ["ledger", "migrate"], in: elsewhere,
                                   environment: ["PATH": path, "DATABASE_URL": db.superuserURL])
        #expect(migrate.status == 0, "\(migrate.errors)")
        #expect(migrate.output.contains("applied 0001_event_log.sql"), "\(migrate.output)")

        let empty = try Self.scratch("nosql")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let wrong = try Self.run("/usr/bin/env", ["ledger", "migrate", "--status"], in: elsewhere,
                                 environment: ["PATH": path, "DATABASE_URL": db.superuserURL, "LEDGER_SQL_DIR": empty])
        #expect(wrong.status == 1)
        #expect(wrong.errors.contains("LEDGER_SQL_DIR is \(empty), which is not a folder of NNNN_name.sql migrations"), "\(wrong.errors)")
    }

    @Test("with no sql/ anywhere, the error says LEDGER_SQL_DIR is unset and lists every folder looked at")
    func migrationsNowhere() throws {
        let outside = try Self.scratch("nosql")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let environment = LedgerEnvironment([:])
        let error = #expect(throws: LedgerEnvironment.ConfigurationError.self) {
            try environment.migrationsDirectory(workingDirectory: outside, executable: "/opt/nowhere/bin/ledger")
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.hasPrefix("LEDGER_SQL_DIR is unset, and no `sql` folder"), "\(text)")
        for place in [outside + "/sql", "/opt/nowhere/bin/sql", "/opt/nowhere/sql", "/opt/nowhere/share/ledger/sql"] {
            #expect(text.contains(place), "\(place): \(text)")
        }
        // The clone's own, from the executable built in it.
        let found = try environment.migrationsDirectory(workingDirectory: outside,
                                                        executable: TestDatabase.repositoryRoot + "/.build/x86_64-unknown-linux-gnu/debug/ledger")
        #expect(found == TestDatabase.repositoryRoot + "/sql")
    }

    @Test("the dev PostgreSQL's port: the default or the remembered one when free, else the next free; a set one that is taken is refused by name")
    func postgresPortChoice() throws {
        let directory = try Self.scratch("pgport")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unset = LedgerEnvironment([:])
        let taken: Set<Int> = [54329, 54330]
        let free: (Int) -> Bool = { !taken.contains($0) }
        #expect(try DevPorts.postgresPort(environment: unset, dataDirectory: directory, runningPort: nil, isFree: { _ in true }).port == 54329)
        let chosen = try DevPorts.postgresPort(environment: unset, dataDirectory: directory, runningPort: nil, isFree: free)
        #expect(chosen.port == 54331)
        #expect(chosen.note?.contains("port 54329 is taken") == true && chosen.note?.contains("LEDGER_DEV_POSTGRES_PORT") == true)
        // Remembered for the data directory: a restart uses it again, even once the default is free.
        DevPorts.rememberPostgresPort(54331, dataDirectory: directory)
        #expect(try DevPorts.postgresPort(environment: unset, dataDirectory: directory, runningPort: nil, isFree: { _ in true }).port == 54331)
        // A server of this cluster that runs already is used where it is.
        #expect(try DevPorts.postgresPort(environment: unset, dataDirectory: directory, runningPort: 54400, isFree: free).port == 54400)
        // Set explicitly: used when free, refused by name when taken or when the cluster runs elsewhere.
        let set = LedgerEnvironment(["LEDGER_DEV_POSTGRES_PORT": "54330"])
        #expect(try DevPorts.postgresPort(environment: set, dataDirectory: directory, runningPort: nil, isFree: { _ in true }).port == 54330)
        let taken54330 = #expect(throws: DevCommand.DevStartError.self) {
            try DevPorts.postgresPort(environment: set, dataDirectory: directory, runningPort: nil, isFree: free)
        }
        #expect(taken54330?.message.contains("(LEDGER_DEV_POSTGRES_PORT=54330): another server is using the port") == true, "\(String(describing: taken54330))")
        #expect(taken54330?.message.contains("LEDGER_DEV_POSTGRES_PORT=54331") == true, "a free one is suggested")
        let elsewhere = #expect(throws: DevCommand.DevStartError.self) {
            try DevPorts.postgresPort(environment: set, dataDirectory: directory, runningPort: 54400, isFree: free)
        }
        #expect(elsewhere?.message.contains("running on port 54400, not on LEDGER_DEV_POSTGRES_PORT=54330") == true)
    }

    @Test("a second `ledger dev` whose addresses are taken is refused at once, naming every setting; a taken LEDGER_DEV_POSTGRES_PORT too")
    func takenAddressesRefused() throws {
        let api = try Held(), console = try Held(), metrics = try Held(), postgres = try Held()
        let directory = try Self.scratch("dev-taken")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = ["DATABASE_URL": "", "LEDGER_DATA_DIR": directory, "LEDGER_PORT": String(api.port),
                           "LEDGER_CONSOLE_ADDRESS": "127.0.0.1:\(console.port)", "LEDGER_METRICS_ADDRESS": "127.0.0.1:\(metrics.port)",
                           "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory, "LEDGER_ENVIRONMENT": ""]
        let started = Date()
        let refused = try LedgerBinary.start(["dev"], environment: environment)
        #expect(refused.wait(timeout: 30) == 1)
        #expect(Date().timeIntervalSince(started) < 10, "refused at once")
        for expected in ["cannot serve on 127.0.0.1:\(api.port)", "LEDGER_PORT", "cannot run the console on 127.0.0.1:\(console.port)",
                         "LEDGER_CONSOLE_ADDRESS", "cannot run the operations listener (metrics) on 127.0.0.1:\(metrics.port)",
                         "LEDGER_METRICS_ADDRESS", "make run` (free now)"] {
            #expect(refused.errors.contains(expected), "\(expected): \(refused.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/postgres"), "no database was started")

        environment["LEDGER_PORT"] = String(CommandLineTests.freePort())
        environment["LEDGER_CONSOLE_ADDRESS"] = "off"
        environment["LEDGER_METRICS_ADDRESS"] = "off"
        environment["LEDGER_DEV_POSTGRES_PORT"] = String(postgres.port)
        let database = try LedgerBinary.start(["dev"], environment: environment)
        #expect(database.wait(timeout: 30) == 1)
        #expect(database.errors.contains("cannot start the dev PostgreSQL on 127.0.0.1:\(postgres.port) (LEDGER_DEV_POSTGRES_PORT=\(postgres.port))"),
                "\(database.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/postgres"), "no cluster was made")
    }

    @Test("two `ledger dev` in two data directories both come up, each on a PostgreSQL port of its own, and say running only once /readyz is 200")
    func twoInstances() throws {
        let first = try Self.scratch("dev-a"), second = try Self.scratch("dev-b")
        func environment(_ directory: String) -> [String: String] {
            ["DATABASE_URL": "", "LEDGER_DATA_DIR": directory, "LEDGER_PORT": String(CommandLineTests.freePort()),
             "LEDGER_CONSOLE_ADDRESS": "127.0.0.1:\(CommandLineTests.freePort())",
             "LEDGER_METRICS_ADDRESS": "127.0.0.1:\(CommandLineTests.freePort())", "LEDGER_DEV_POSTGRES_PORT": "",
             "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory, "LEDGER_ENVIRONMENT": ""]
        }
        var processes: [LedgerProcess] = []
        defer {
            for process in processes { process.kill(signal: SIGINT) }
            for process in processes { _ = process.wait(timeout: 60) }
            for directory in [first, second] {
                _ = try? LedgerBinary.start(["pg", "stop", "--dir", directory + "/postgres"]).wait()
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        /// Waits for "ledger is running", then asks /readyz at once.
        func waitRunning(_ process: LedgerProcess, _ environment: [String: String]) throws -> Int {
            try #require(Poll.until(timeout: 120, interval: 0.05) { process.output.contains("ledger is running") || !process.process.isRunning },
                         "\(process.errors.suffix(2000))")
            try #require(process.process.isRunning, "\(process.errors.suffix(2000))")
            let port = Int(environment["LEDGER_PORT"]!)!
            return try BenchHTTP.HTTPClient(host: "127.0.0.1", port: port).send(method: "GET", path: "/readyz").status
        }
        let a = environment(first), b = environment(second)
        processes.append(try LedgerBinary.start(["dev"], environment: a))
        #expect(try waitRunning(processes[0], a) == 200, "ledger is running means ready")
        // The second, once the first runs: its database's port (the default, or the one the
        // first chose) is taken, and another is chosen.
        processes.append(try LedgerBinary.start(["dev"], environment: b))
        #expect(try waitRunning(processes[1], b) == 200, "ledger is running means ready")

        func port(_ directory: String) throws -> Int {
            try #require(Int(String(contentsOfFile: directory + "/postgres-port", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let portA = try port(first), portB = try port(second)
        #expect(portA != portB)
        for (directory, port) in [(first, portA), (second, portB)] {
            let demo = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/demo.json"))))
            let admin = try #require(demo["admin_database_url"]?.stringValue)
            #expect(admin.contains("@127.0.0.1:\(port)/"), "\(PostgresURL.redacted(admin))")
            #expect(try PostgresConnection(conninfo: admin).query("SELECT current_setting('port')").rows.first?.string(0) == String(port))
        }
        // The same data directory again: refused at once, naming the first.
        let again = try LedgerBinary.start(["dev"], environment: b)
        #expect(again.wait(timeout: 10) == 1)
        #expect(again.errors.contains("already running (pid \(processes[1].process.processIdentifier))"), "\(again.errors)")
    }

    @Test("`ledger dev` whose service does not turn ready says NOT READY and why, never \"ledger is running\"")
    func notReadySaysWhy() throws {
        let directory = try Self.scratch("dev-notready")
        let port = CommandLineTests.freePort()
        // A lag of -1 is never caught up: /readyz answers 503 "catching up" for ever.
        let dev = try LedgerBinary.start(["dev"], environment: [
            "DATABASE_URL": "", "LEDGER_DATA_DIR": directory, "LEDGER_PORT": String(port), "LEDGER_CONSOLE_ADDRESS": "off",
            "LEDGER_METRICS_ADDRESS": "off", "LEDGER_DEV_POSTGRES_PORT": String(CommandLineTests.freePort()), "LEDGER_READY_MAX_LAG": "-1",
            "LEDGER_TEST_DEV_READY_SECONDS": "3", "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory, "LEDGER_ENVIRONMENT": "",
        ])
        defer {
            dev.kill(signal: SIGINT)
            _ = dev.wait(timeout: 60)
            _ = try? LedgerBinary.start(["pg", "stop", "--dir", directory + "/postgres"]).wait()
            try? FileManager.default.removeItem(atPath: directory)
        }
        try #require(Poll.until(timeout: 120, interval: 0.1) { dev.output.contains("NOT READY") || dev.output.contains("ledger is running") || !dev.process.isRunning },
                     "\(dev.errors.suffix(2000))")
        #expect(dev.output.contains("ledger started at http://127.0.0.1:\(port), but is NOT READY: /readyz still answers 503 after 3 s: the projections are catching up with the log"),
                "\(dev.output.prefix(600))")
        #expect(!dev.output.contains("ledger is running"))
        #expect(dev.process.isRunning, "it keeps running, for the developer to look")
    }

    @Test("a production start refused after its settings are read exits 1 without touching the database, and says LEDGER_APPSTORE_EXTRA_ROOTS is ignored")
    func refusedProductionStartIsClean() throws {
        let database = try Held(), taken = try Held()
        let environment = [
            "LEDGER_ENVIRONMENT": "production", "DATABASE_URL": "postgresql://ledger:secret@127.0.0.1:\(database.port)/ledger?connect_timeout=2",
            "LEDGER_CURSOR_SECRET": String(repeating: "c", count: 40), "LEDGER_PORT": String(taken.port), "LEDGER_METRICS_ADDRESS": "off",
            "LEDGER_APPSTORE_EXTRA_ROOTS": "/nonexistent/test-root.pem", "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory,
            "LEDGER_DATA_DIR": "/nonexistent",
        ]
        for _ in 0..<6 {
            let serve = try LedgerBinary.start(["serve"], environment: environment)
            #expect(serve.wait(timeout: 30) == 1)
            #expect(serve.errors.contains("bind 127.0.0.1:\(taken.port)"), "\(serve.errors)")
            #expect(!serve.errors.contains("unreachable") && !serve.errors.contains("crashed"), "\(serve.errors)")
            #expect(serve.errors.contains(#""setting":"LEDGER_APPSTORE_EXTRA_ROOTS""#) && serve.errors.contains("but ignored"), "\(serve.errors)")
            #expect(!serve.errors.contains(#""msg":"listening""#))
        }
        #expect(database.acceptAll() == 0, "no background thread logged in before the refusal")
    }
}
