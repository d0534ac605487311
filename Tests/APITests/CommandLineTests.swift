import EventStore
import Foundation
import API
import LedgerCLI
import LedgerJSON
import Testing
import TestSupport

@Suite("The ledger command")
struct CommandLineTests {
    @Test("ledger verify exits 0 on a fresh log and 1 naming the first altered position")
    func verifyExitStatus() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.serviceURL)
        for i in 0..<5 { _ = try store.append(AppendRequest(event("org-\(i)"))) }
        store.close()
        let env = ["DATABASE_URL": db.superuserURL, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory]
        let good = try LedgerBinary.start(["verify"], environment: env)
        #expect(good.wait() == 0)
        #expect(good.output.contains("valid: 5 events, head 5"))

        let superuser = try db.connect()
        try superuser.query("SET session_replication_role = replica")
        try superuser.query(#"UPDATE events SET type = 'forged' WHERE position = 3"#)
        let bad = try LedgerBinary.start(["verify"], environment: env)
        #expect(bad.wait() == 1)
        #expect(bad.output.contains("INVALID at position 3"))
        let json = try LedgerBinary.start(["verify", "--json"], environment: env)
        #expect(json.wait() == 1)
        #expect(json.output.contains(#""position":3"#))
    }

    @Test("ledger migrate applies once and reports when current; --status exits 3 while migrations are pending")
    func migrate() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let env = ["DATABASE_URL": db.superuserURL, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory]
        let pending = try LedgerBinary.start(["migrate", "--status"], environment: env)
        #expect(pending.wait() == 3)
        let first = try LedgerBinary.start(["migrate"], environment: env)
        #expect(first.wait() == 0)
        #expect(first.output.contains("applied 0001_event_log.sql"))
        let second = try LedgerBinary.start(["migrate"], environment: env)
        #expect(second.wait() == 0)
        #expect(second.output.contains("migrations are current"))
    }

    @Test("ledger --help lists every command and every environment variable")
    func help() throws {
        let process = try LedgerBinary.start(["--help"])
        #expect(process.wait() == 0)
        for setting in LedgerEnvironment.Setting.all { #expect(process.output.contains(setting.name)) }
        for command in ["dev", "serve", "project", "migrate", "replay", "verify", "bench"] {
            #expect(process.output.contains("  \(command) "), "missing \(command)")
        }
    }

    @Test("a command without DATABASE_URL says what to do, with status 1")
    func missingDatabaseURL() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-no-dev-\(UUID().uuidString)").path
        let process = try LedgerBinary.start(["verify"], environment: ["DATABASE_URL": "", "LEDGER_DATA_DIR": empty])
        #expect(process.wait() == 1)
        #expect(process.errors.contains("DATABASE_URL is not set"))
    }

    @Test("issue 11: without DATABASE_URL, a command finds the cluster `ledger dev` described, and says so")
    func devClusterFound() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo: JSONValue = ["database_url": .string(db.serviceURL), "admin_database_url": .string(db.superuserURL)]
        try Data(demo.prettyText().utf8).write(to: directory.appendingPathComponent("demo.json"))
        let environment = ["DATABASE_URL": "", "LEDGER_MIGRATION_DATABASE_URL": "", "LEDGER_DATA_DIR": directory.path]
        let status = try LedgerBinary.start(["migrate", "--status"], environment: environment)
        #expect(status.wait() == 0, "\(status.errors)")
        #expect(status.errors.contains("using the dev cluster of \(directory.path)/demo.json (\(db.superuserURL))"))
        let verify = try LedgerBinary.start(["verify"], environment: environment)
        #expect(verify.wait() == 0, "\(verify.errors)")
        #expect(verify.errors.components(separatedBy: "using the dev cluster").count == 2, "said once: \(verify.errors)")
        #expect(verify.errors.contains("(\(db.serviceURL))"))
    }

    @Test("issue 11: `ledger dev` on a port another server holds fails at once, with status 1, and writes no demo.json")
    func devRefusesATakenPort() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound && listen(listener, 8) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-dev-port-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try LedgerBinary.start(["dev"], environment: [
            "DATABASE_URL": "", "LEDGER_DATA_DIR": directory.path, "LEDGER_HOST": "127.0.0.1", "LEDGER_PORT": String(port),
        ])
        #expect(process.wait(timeout: 30) == 1)
        #expect(process.errors.contains("cannot serve on 127.0.0.1:\(port)"), "\(process.errors)")
        #expect(process.errors.contains("LEDGER_PORT"))
        #expect(!process.output.contains("ledger is running"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("demo.json").path))
    }

    @Test("issue 11: a mistyped command names the one meant in a line or two, with status 2; --version prints the release")
    func typosAndVersion() throws {
        let typo = try LedgerBinary.start(["verfy"])
        #expect(typo.wait() == 2)
        #expect(typo.errors.contains("did you mean `ledger verify`?"), "\(typo.errors)")
        #expect(typo.errors.split(separator: "\n").count <= 2, "a typo printed \(typo.errors.split(separator: "\n").count) lines")
        let unrelated = try LedgerBinary.start(["deploy"])
        #expect(unrelated.wait() == 2)
        #expect(!unrelated.errors.contains("did you mean"))
        let version = try LedgerBinary.start(["--version"])
        #expect(version.wait() == 0)
        #expect(version.output.trimmingCharacters(in: .whitespacesAndNewlines) == "ledger \(LedgerVersion.current)")
    }

    @Test("issue 11: `ledger appstore sign --help` is about signing, `verify --help` about verifying")
    func appStoreHelpIsPerSubcommand() throws {
        let sign = try LedgerBinary.start(["appstore", "sign", "--help"])
        #expect(sign.wait() == 0)
        #expect(sign.output.contains("ledger appstore sign"))
        #expect(!sign.output.contains("usage: ledger appstore verify"))
        let verify = try LedgerBinary.start(["appstore", "verify", "--help"])
        #expect(verify.wait() == 0)
        #expect(verify.output.contains("usage: ledger appstore verify"))
        #expect(!verify.output.contains("ledger appstore sign transaction"))
    }
}
