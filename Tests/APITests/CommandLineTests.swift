import EventStore
import Foundation
import LedgerCLI
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
        let process = try LedgerBinary.start(["verify"], environment: ["DATABASE_URL": ""])
        #expect(process.wait() == 1)
        #expect(process.errors.contains("DATABASE_URL is not set"))
    }
}
