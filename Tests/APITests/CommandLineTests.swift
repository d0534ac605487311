import API
import BenchHTTP
import EventStore
import Foundation
import LedgerCLI
import LedgerJSON
import LedgerServices
import Postgres
import Testing
import TestSupport

@Suite("The ledger command", .bounded)
struct CommandLineTests {
    @Test("ledger verify exits 0 on a fresh log and 1 naming the first altered position")
    func verifyExitStatus() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
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
        for command in ["dev", "serve", "project", "migrate", "replay", "verify"] {
            #expect(process.output.contains("  \(command) "), "missing \(command)")
        }
    }

    @Test("`ledger --help` and docs/console.md say the same of LEDGER_CONSOLE_SECRET: it derives the forms' CSRF tokens and signs no cookie")
    func consoleSecretHelpIsTheDocs() throws {
        let process = try LedgerBinary.start(["--help"])
        #expect(process.wait() == 0)
        let help = LedgerEnvironment.Setting.consoleSecret.help
        // What the code does (ConsoleSession.csrfToken, the sign-in form's token): the
        // first two sentences of the help, word for word in the docs' row.
        let sentences = help.components(separatedBy: ". ").prefix(2).map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        #expect(sentences.count == 2 && sentences[0].contains("CSRF tokens") && sentences[1].contains("signs no cookie"), "\(help)")
        let squeeze = { (s: String) in s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(squeeze(process.output).contains(squeeze(sentences[0])), "ledger --help prints it")
        let doc = try String(contentsOfFile: TestDatabase.repositoryRoot + "/docs/console.md", encoding: .utf8)
        let row = try #require(doc.split(separator: "\n").first { $0.hasPrefix("| `LEDGER_CONSOLE_SECRET` |") })
        for sentence in sentences { #expect(row.contains(sentence), "docs/console.md: \(row)") }
    }

    @Test("a command without DATABASE_URL says what to do, with status 1")
    func missingDatabaseURL() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-no-dev-\(UUID().uuidString)").path
        let process = try LedgerBinary.start(["verify"], environment: ["DATABASE_URL": "", "LEDGER_DATA_DIR": empty])
        #expect(process.wait() == 1)
        #expect(process.errors.contains("DATABASE_URL is not set"))
    }

    @Test("without DATABASE_URL, a command finds the cluster `ledger dev` described, and says so")
    func devClusterFound() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo: JSONValue = ["database_url": .string(db.writerURL), "admin_database_url": .string(db.superuserURL)]
        try Data(demo.prettyText().utf8).write(to: directory.appendingPathComponent("demo.json"))
        let environment = ["DATABASE_URL": "", "LEDGER_MIGRATION_DATABASE_URL": "", "LEDGER_DATA_DIR": directory.path]
        let status = try LedgerBinary.start(["migrate", "--status"], environment: environment)
        #expect(status.wait() == 0, "\(status.errors)")
        #expect(status.errors.contains("using the dev cluster of \(directory.path)/demo.json (\(PostgresURL.redacted(db.superuserURL)); development profile)"))
        let verify = try LedgerBinary.start(["verify"], environment: environment)
        #expect(verify.wait() == 0, "\(verify.errors)")
        #expect(verify.errors.components(separatedBy: "using the dev cluster").count == 2, "said once: \(verify.errors)")
        #expect(verify.errors.contains("(\(PostgresURL.redacted(db.writerURL));"))
        #expect(!verify.errors.contains(TestDatabase.loginPassword), "the password is never printed")
    }

    @Test("`ledger dev` on a port another server holds fails at once, with status 1, and writes no demo.json")
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

    /// The environment of each child of `pid`, by its subcommand (`serve`, `project`), as
    /// /proc shows them.
    static func childEnvironments(of pid: Int32) -> [String: [String: String]] {
        let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        var found: [String: [String: String]] = [:]
        for child in list.split(separator: " ").compactMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            guard let command = FileManager.default.contents(atPath: "/proc/\(child)/cmdline"),
                  let environ = FileManager.default.contents(atPath: "/proc/\(child)/environ") else { continue }
            let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.count >= 2 else { continue }
            var environment: [String: String] = [:]
            for entry in environ.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }) {
                guard let equals = entry.firstIndex(of: "=") else { continue }
                environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
            }
            found[arguments[1]] = environment
        }
        return found
    }

    /// A port nothing listens on now, below Linux's ephemeral range.
    static func freePort() -> Int {
        while true {
            let candidate = 15_000 + Int.random(in: 0..<15_000)
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(probe) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(candidate).bigEndian)
            let free = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if free { return candidate }
        }
    }

    @Test("`ledger dev` runs once per data directory, writes its secrets 0600, and its cluster wants a password on TCP")
    func devOncePerDataDirectory() throws {
        let directory = "/tmp/ledger-dev-once-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let postgresPort = Self.freePort(), apiPort = Self.freePort(), consolePort = Self.freePort(), metricsPort = Self.freePort()
        let environment = ["DATABASE_URL": "", "LEDGER_DATA_DIR": directory, "LEDGER_PORT": String(apiPort),
                           "LEDGER_CONSOLE_ADDRESS": "127.0.0.1:\(consolePort)", "LEDGER_DEV_POSTGRES_PORT": String(postgresPort),
                           "LEDGER_METRICS_ADDRESS": "127.0.0.1:\(metricsPort)",
                           "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory, "LEDGER_ENVIRONMENT": ""]
        let first = try LedgerBinary.start(["dev"], environment: environment)
        defer {
            first.kill(signal: SIGINT)
            _ = first.wait(timeout: 60)
            _ = try? LedgerBinary.start(["pg", "stop", "--dir", directory + "/postgres"]).wait()
            try? FileManager.default.removeItem(atPath: directory)
        }
        try #require(Poll.until(timeout: 180, interval: 0.2) { first.output.contains("ledger is running") || !first.process.isRunning },
                     "\(first.errors)")
        try #require(first.process.isRunning, "\(first.errors.suffix(2000))")
        let demoPath = directory + "/demo.json"
        func mode(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1 }
        #expect(try mode(demoPath) == 0o600)
        for secret in ["cursor-secret", "session-secret", "webhook-key", "console-secret", "checkpoint-key.pem", "demo-keys.json",
                       "appstore-offer-keys/SubscriptionKey_DEVOFFER01.p8", "appstore-offer-keys/offer-keys.json"] {
            #expect(try mode(directory + "/" + secret) == 0o600, "\(secret)")
        }
        let demo = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: demoPath))))
        let admin = try #require(demo["admin_database_url"]?.stringValue)
        #expect(demo["environment"] == "development")
        #expect(try PostgresConnection(conninfo: admin).query("SELECT 1").rowCount == 1)
        // Without the password, nobody gets in over TCP, not even as the superuser.
        for user in ["postgres", "ledger", "console", "projector"] {
            #expect(throws: PostgresError.self) {
                try PostgresConnection(conninfo: "postgresql://\(user)@127.0.0.1:\(postgresPort)/ledger?connect_timeout=5")
            }
        }
        let password = try #require(URLComponents(string: admin)?.password)
        #expect(!first.output.contains(password) && !first.errors.contains(password), "no password is printed")
        // The API runs as a login that reads the projections only.
        let service = try PostgresConnection(conninfo: try #require(demo["database_url"]?.stringValue))
        #expect(throws: PostgresError.self) { try service.query("UPDATE proj_billing.keys SET revoked = false") }
        // The metrics and the readiness in full are on the operations listener it printed
        // and wrote, not on the API's port.
        #expect(demo["operations"]?["metrics"] == .string("http://127.0.0.1:\(metricsPort)/metrics"), "\(demo["operations"] ?? .null)")
        #expect(first.output.contains("http://127.0.0.1:\(metricsPort)/metrics"))
        let scrape = try BenchHTTP.HTTPClient(host: "127.0.0.1", port: metricsPort).send(method: "GET", path: "/metrics")
        #expect(scrape.status == 200 && String(decoding: scrape.body, as: UTF8.self).contains("ledger_log_head_position"))
        #expect(try BenchHTTP.HTTPClient(host: "127.0.0.1", port: apiPort).send(method: "GET", path: "/metrics").status == 404)
        // Each child holds its own secrets only, as the kernel shows its environment.
        let children = Self.childEnvironments(of: first.process.processIdentifier)
        let api = try #require(children["serve"], "\(children.keys)")
        let projector = try #require(children["project"], "\(children.keys)")
        let console = try #require(children["console"], "\(children.keys)")
        for name in ["LEDGER_PROJECTOR_DATABASE_URL", "LEDGER_CHECKPOINT_KEY_FILE", "LEDGER_WEBHOOK_KEY", "LEDGER_CONSOLE_SECRET"] {
            #expect(api[name] == nil, "the API holds \(name)")
        }
        // The console is a process of its own, on a login of its own, and answers.
        #expect(console["DATABASE_URL"]?.contains("console:") == true && console["LEDGER_CONSOLE_SECRET"] != nil)
        for name in ["LEDGER_CURSOR_SECRET", "LEDGER_SESSION_SECRET", "LEDGER_WEBHOOK_KEY", "LEDGER_CHECKPOINT_KEY_FILE"] {
            #expect(console[name] == nil, "the console holds \(name)")
        }
        #expect(try BenchHTTP.HTTPClient(host: "127.0.0.1", port: consolePort).send(method: "GET", path: "/login").status == 200)
        // The commands typed in the clone act as the developer's own login.
        let operatorURL = try #require(demo["operator_database_url"]?.stringValue)
        #expect(try PostgresConnection(conninfo: operatorURL).query("SELECT pg_has_role(session_user, 'ledger_operator', 'MEMBER')")
            .rows.first?.bool(0) == true)
        #expect(projector["LEDGER_CHECKPOINT_KEY_FILE"] != nil && projector["LEDGER_WEBHOOK_KEY"] != nil)
        #expect(projector["DATABASE_URL"]?.contains("projector:") == true && api["DATABASE_URL"]?.contains("ledger:") == true,
                "each its own login")
        for name in ["LEDGER_CURSOR_SECRET", "LEDGER_SESSION_SECRET", "LEDGER_CONSOLE_SECRET"] {
            #expect(projector[name] == nil, "the projector holds \(name)")
        }
        for name in ["LEDGER_CURSOR_SECRET", "LEDGER_SESSION_SECRET", "LEDGER_APPSTORE_OFFER_KEYS"] {
            #expect(api[name] != nil, "the API lacks \(name)")
        }
        // The promotional offer key is the API's alone, and demo.json names its file.
        #expect(console["LEDGER_APPSTORE_OFFER_KEYS"] == nil && projector["LEDGER_APPSTORE_OFFER_KEYS"] == nil)
        #expect(demo["promotional_offers"]?["keys_file"]?.stringValue == api["LEDGER_APPSTORE_OFFER_KEYS"])
        // The demo's story, played through the API and the acts: a closed month with its
        // charges, holds captured and released, a correction, an App Store subscription's
        // history, offers served (docs/console.md, "The demo").
        let story = try Self.storyCounts(admin)
        #expect(story["usage.month_closed"] == 2 && story["hold.captured"] == 1 && story["hold.released"] == 1
                && story["entry.corrected"] == 1 && story["appstore.transaction_recorded"] == 4
                && story["appstore.subscription_ended"] == 1 && story["org.staff_plan_decided"] == 1, "\(story)")
        #expect(story["appstore.notification_acknowledged"] == nil, "every notification named the organization: \(story)")
        #expect(demo["ids"]?["appstore_org"] == "lakeside-academy" && demo["ids"]?["closed_month"]?.stringValue?.count == 7)
        #expect(Poll.until(timeout: 30) { (try? Self.storyCounts(admin, types: ["iap.offer_impressions_counted"]))?.isEmpty == false },
                "the offers served are counted")
        #expect(!first.errors.contains("story was not played"), "\(first.errors.suffix(1000))")
        let before = try Data(contentsOf: URL(fileURLWithPath: demoPath))
        // `ledger serve` says which profile it runs under on its first line.
        let apiLog = try String(contentsOfFile: directory + "/logs/api.log", encoding: .utf8)
        #expect(apiLog.split(separator: "\n").first?.contains(#""profile":"development""#) == true, "\(apiLog.prefix(300))")

        // A second one in the same folder: exits 1 naming the first, and changes nothing.
        let second = try LedgerBinary.start(["dev"], environment: environment)
        #expect(second.wait(timeout: 30) == 1)
        #expect(second.errors.contains("already running (pid \(first.process.processIdentifier)) at http://127.0.0.1:\(apiPort)"),
                "\(second.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: demoPath)) == before)
        #expect(try PostgresConnection(conninfo: admin).query("SELECT 1").rowCount == 1, "the first one's database still runs")
        #expect(first.process.isRunning)
        let health = try BenchHTTP.HTTPClient(host: "127.0.0.1", port: apiPort).send(method: "GET", path: "/healthz")
        #expect(health.status == 200)

        // The first one, stopped, stops the database it started.
        first.kill(signal: SIGINT)
        #expect(first.wait(timeout: 60) == 0, "\(first.errors.suffix(1000))")
        let status = try LedgerBinary.start(["pg", "status", "--dir", directory + "/postgres"])
        #expect(status.wait() == 3, "stopped: \(status.output)")

        // A database that runs already (started by hand) is used, and left running.
        let started = try LedgerBinary.start(["pg", "start", "--dir", directory + "/postgres", "--port", String(postgresPort)])
        #expect(started.wait(timeout: 120) == 0)
        let third = try LedgerBinary.start(["dev"], environment: environment)
        try #require(Poll.until(timeout: 180, interval: 0.2) { third.output.contains("ledger is running") || !third.process.isRunning })
        #expect(!third.errors.contains("story was not played"), "\(third.errors.suffix(1000))")
        #expect(try Self.storyCounts(admin) == story, "a restart plays nothing again")
        third.kill(signal: SIGINT)
        #expect(third.wait(timeout: 60) == 0)
        let still = try LedgerBinary.start(["pg", "status", "--dir", directory + "/postgres"])
        #expect(still.wait() == 0, "the database it did not start is left running")
    }

    /// How many events of each type the demo's story makes the log holds.
    static func storyCounts(_ url: String, types: [String] = [
        "usage.month_closed", "hold.captured", "hold.released", "entry.corrected", "appstore.transaction_recorded",
        "appstore.subscription_ended", "appstore.notification_acknowledged", "org.staff_plan_decided", "usage.recorded",
    ]) throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for row in try PostgresConnection(conninfo: url).query("""
            SELECT type, count(*) FROM events WHERE type = ANY($1::text[]) GROUP BY type
            """, ["{" + types.joined(separator: ",") + "}"]).rows {
            counts[try row.requireString(0)] = try row.requireInt64(1)
        }
        return counts
    }

    @Test("the profile fails closed: unset is production, which wants its secrets; a misspelt one runs nothing")
    func profileFailsClosed() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-no-dev-\(UUID().uuidString)").path
        let base = ["DATABASE_URL": db.writerURL, "LEDGER_DATA_DIR": empty, "LEDGER_PORT": String(Self.freePort()),
                    "LEDGER_CONSOLE_ADDRESS": "off", "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory]
        let unset = try LedgerBinary.start(["serve"], environment: base.merging(["LEDGER_ENVIRONMENT": ""]) { $1 })
        #expect(unset.wait(timeout: 30) == 1)
        #expect(unset.errors.contains(#""profile":"production""#) && unset.errors.contains("LEDGER_ENVIRONMENT unset"), "\(unset.errors)")
        #expect(unset.errors.contains("LEDGER_CURSOR_SECRET is required in production"), "\(unset.errors)")
        for wrong in ["Production", "prod", "dev"] {
            let refused = try LedgerBinary.start(["serve"], environment: base.merging(["LEDGER_ENVIRONMENT": wrong]) { $1 })
            #expect(refused.wait(timeout: 30) == 2)
            #expect(refused.errors.contains("neither production nor development"), "\(wrong): \(refused.errors)")
            #expect(!refused.errors.contains("listening"))
        }
        let development = try LedgerBinary.start(["serve"], environment: base.merging(["LEDGER_ENVIRONMENT": "development"]) { $1 })
        defer { development.kill(signal: SIGTERM) }
        #expect(Poll.until(timeout: 30) { development.errors.contains("\"msg\":\"listening\"") }, "\(development.errors)")
        #expect(development.errors.split(separator: "\n").first?.contains(#""profile":"development""#) == true)
    }

    @Test("the benchmarks are ledger-bench, and write only into databases they made")
    func benchmarksWriteOnlyTheirOwnDatabases() throws {
        let moved = try LedgerBinary.start(["bench", "append"])
        #expect(moved.wait() == 2 && moved.errors.contains("ledger-bench append"), "\(moved.errors)")
        let cluster = try TestPostgres.requireURL()
        let admin = try TestPostgres.connect()
        _ = try admin.query("DROP DATABASE IF EXISTS ledger_bench_append WITH (FORCE)")
        defer { _ = try? admin.query("DROP DATABASE IF EXISTS ledger_bench_append WITH (FORCE)") }
        let environment = ["DATABASE_URL": cluster, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory]
        // It makes its own database, marks it, migrates it and appends there.
        let run = try LedgerBinary.startBench(["append", "--events", "1000", "--writers", "2"], environment: environment)
        #expect(run.wait(timeout: 120) == 0, "\(run.errors)")
        #expect(run.output.contains("database: ledger_bench_append") && run.output.contains("made for this run"), "\(run.output.prefix(400))")
        let comment = try admin.query("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = 'ledger_bench_append'")
        #expect(comment.rows.first?.string(0)?.hasPrefix("made by ledger-bench") == true)
        // A database of that name that it did not make is refused, and left as it was.
        _ = try admin.query("DROP DATABASE ledger_bench_append WITH (FORCE)")
        _ = try admin.query("CREATE DATABASE ledger_bench_append")
        let refused = try LedgerBinary.startBench(["append", "--events", "1000"], environment: environment)
        #expect(refused.wait(timeout: 60) == 2 && refused.errors.contains("did not make"), "\(refused.errors)")
        let untouched = try PostgresConnection(conninfo: URLComponents(string: cluster).map { c -> String in
            var c = c
            c.path = "/ledger_bench_append"
            return c.string!
        }!)
        #expect(try untouched.query("SELECT count(*) FROM pg_tables WHERE tablename = 'events'")[0].int64(0) == 0, "not migrated, not written")
        // A role that may not create databases is refused before anything is written.
        let db = try TestDatabase.create()
        defer { db.drop() }
        let service = try LedgerBinary.startBench(["ingest", "--batches", "1"], environment: ["DATABASE_URL": db.writerURL,
                                                                                              "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory])
        #expect(service.wait(timeout: 60) == 2 && service.errors.contains("may not create"), "\(service.errors)")
    }

    @Test("a mistyped command names the one meant in a line or two, with status 2; --version prints the release")
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

    @Test("`ledger appstore sign --help` is about signing, `verify --help` about verifying")
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
