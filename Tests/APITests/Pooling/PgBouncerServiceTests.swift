import BenchHTTP
import EventStore
import Foundation
import LedgerCLI
import LedgerJSON
import Postgres
import Synchronization
import Testing
import Threads
import TestSupport

/// The service behind a real PgBouncer in transaction pooling mode (docs/scaling.md,
/// "PgBouncer"): `ledger serve`, `ledger project`, `ledger admin` and `ledger replay` run
/// with DATABASE_URL through it and LEDGER_DIRECT_DATABASE_URL straight to PostgreSQL,
/// with fewer server connections per login than the API's pool has clients.
@Suite("The service behind PgBouncer in transaction pooling", .bounded)
struct PgBouncerServiceTests {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// What the ingesting clients saw: their failures, and the highest position written.
    final class Outcomes: Sendable {
        let failures = Mutex<[String]>([])
        let highest = Mutex<Int64>(0)
    }

    /// `ledger ARGS` to its end with `environment`; its output, or a failure with its errors.
    static func run(_ arguments: [String], _ environment: [String: String]) throws -> String {
        let process = try LedgerBinary.start(arguments, environment: environment)
        guard let status = process.wait(timeout: 60), status == 0 else {
            throw Failure(description: "ledger \(arguments.joined(separator: " ")) failed: \(process.errors.suffix(2_000))")
        }
        return process.output
    }

    @Test("LEDGER_DIRECT_DATABASE_URL is DATABASE_URL's twin: the same login, for DATABASE_URL alone, unset meaning the same URL")
    func directTwin() throws {
        let pooled = "postgresql://api:pw@pgbouncer:6432/ledger"
        let direct = "postgresql://api:pw@db1:5432/ledger"
        let both = LedgerEnvironment(["DATABASE_URL": pooled, "LEDGER_DIRECT_DATABASE_URL": direct])
        #expect(try both.directDatabaseURL(for: pooled) == direct)
        let pool = try both.databasePool(pooled, maximumConnections: 2)
        #expect(pool.conninfo == pooled && pool.directConninfo == direct && pool.isBehindTransactionPooler)
        // Migrations and a replay hold session locks: they take the twin when they fall back on DATABASE_URL.
        #expect(try both.migrationDatabaseURL() == direct)
        // Every other URL names PostgreSQL itself already.
        let projector = "postgresql://proj:pw@db1:5432/ledger"
        #expect(try both.directDatabaseURL(for: projector) == projector)
        let unset = LedgerEnvironment(["DATABASE_URL": pooled])
        #expect(try unset.directDatabaseURL(for: pooled) == pooled)
        #expect(try !unset.databasePool(pooled, maximumConnections: 1).isBehindTransactionPooler)
        let other = LedgerEnvironment(["DATABASE_URL": pooled, "LEDGER_DIRECT_DATABASE_URL": "postgresql://ledger_owner:pw@db1/ledger"])
        let refused = #expect(throws: LedgerEnvironment.ConfigurationError.self) { try other.directDatabaseURL(for: pooled) }
        #expect(refused?.description == "LEDGER_DIRECT_DATABASE_URL logs in as ledger_owner, DATABASE_URL as api: it must be the same login, straight to PostgreSQL")
        let keywords = LedgerEnvironment(["DATABASE_URL": pooled, "LEDGER_DIRECT_DATABASE_URL": "host=db1 password=secret"])
        let malformed = #expect(throws: LedgerEnvironment.ConfigurationError.self) { try keywords.directDatabaseURL(for: pooled) }
        #expect(malformed?.description.contains("postgresql:// URL") == true && malformed?.description.contains("secret") == false)
    }

    @Test("read-your-writes, concurrent ingestion and the operators' acts and replay pass through the pooler; session state goes direct")
    func serviceBehindPgBouncer() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let operatorURL = try db.operatorURL("bouncer_operator")
        let logins = [TestDatabase.apiLogin, TestDatabase.projectorLogin, "bouncer_operator"].map { ($0, TestDatabase.loginPassword) }
        let bouncer = try TestPgBouncer(cluster: try TestPostgres.requireURL(), logins: logins, poolSize: 3)
        defer { bouncer.stop() }
        let empty = "/tmp/ledger-no-dev-" + UUID().uuidString
        func environment(_ direct: String, _ extra: [String: String] = [:]) -> [String: String] {
            ["DATABASE_URL": bouncer.url(direct), "LEDGER_DIRECT_DATABASE_URL": direct, "LEDGER_DATA_DIR": empty,
             "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory, "LEDGER_LOG_LEVEL": "info"].merging(extra) { $1 }
        }
        let port = CommandLineTests.freePort()
        let api = try LedgerBinary.start(["serve"], environment: environment(db.apiURL, [
            "LEDGER_PORT": String(port), "LEDGER_HOST": "127.0.0.1", "LEDGER_CONSOLE_ADDRESS": "off", "LEDGER_METRICS_ADDRESS": "off",
            "LEDGER_DB_POOL_SIZE": "12"]))
        defer {
            api.kill(signal: SIGTERM)
            _ = api.wait(timeout: 30)
        }
        // The projector's jobs beside its engine use pools too: the webhook sender's.
        let projector = try LedgerBinary.start(["project"], environment: environment(db.projectorURL, [
            "LEDGER_PROJECTOR_POLL_INTERVAL": "0.2", "LEDGER_WEBHOOK_KEY": "a webhook key of the pgbouncer test, 32+ bytes"]))
        defer {
            projector.kill(signal: SIGTERM)
            _ = projector.wait(timeout: 30)
        }
        let ready = Poll.until(timeout: 20, interval: 0.05) {
            (try? HTTPClient(host: "127.0.0.1", port: port).send(method: "GET", path: "/readyz").status) == 200
        }
        try #require(ready, "api: \(api.errors.suffix(2_000))\nprojector: \(projector.errors.suffix(2_000))")

        // Operators' acts through the pooler; each waits for the projection (LISTEN, direct).
        let admin = environment(operatorURL)
        let reason = ["--reason", "behind pgbouncer", "--json"]
        _ = try Self.run(["admin", "project", "create", "--id", "pooled", "--name", "Pooled", "--self-paying"] + reason, admin)
        let service = try JSONValue.parse(Self.run(["admin", "key", "issue", "--service", "metering"] + reason, admin))["secret"]?.stringValue
        let reader = try JSONValue.parse(Self.run(["admin", "key", "issue", "--project", "pooled"] + reason, admin))["secret"]?.stringValue
        let credit = try JSONValue.parse(Self.run(["admin", "credit", "--pool", "project:pooled", "--source", "grant", "--amount", "5000",
                                                   "--description", "through the pooler"] + reason, admin))
        let serviceKey = try #require(service), readerKey = try #require(reader)
        let creditPosition = try #require(credit["events"]?.arrayValue?.first?["position"]?.int64Value, "\(credit)")

        // Read-your-writes: the operator's grant, read at its position.
        let client = try HTTPClient(host: "127.0.0.1", port: port)
        let balance = try client.send(method: "GET", path: "/v1/projects/pooled/balance?min_position=\(creditPosition)",
                                      headers: [("Authorization", "Bearer \(readerKey)")])
        #expect(balance.status == 200, "\(String(decoding: balance.body, as: UTF8.self))")
        #expect(try JSONValue.parse(balance.body)["available"] == "5000", "\(String(decoding: balance.body, as: UTF8.self))")

        // Ingestion from six clients at once, each reading its own batches back at once.
        let occurredAt = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        let month = String(occurredAt.prefix(7))
        let clients = 6, batches = 4, perBatch = 10
        let outcomes = Outcomes()
        // Threads of their own: as many at once as asked, whatever the cores.
        ThreadGroup.run(clients) { c in
            do {
                let http = try HTTPClient(host: "127.0.0.1", port: port)
                for b in 0..<batches {
                    let events: [JSONValue] = (0..<perBatch).map { e in
                        ["id": .string("c\(c)-b\(b)-e\(e)"), "project_id": "pooled", "meter": "api_requests", "quantity": 1,
                         "occurred_at": .string(occurredAt)]
                    }
                    let posted = try http.send(method: "POST", path: "/v1/usage/events",
                                               headers: [("Authorization", "Bearer \(serviceKey)"), ("Content-Type", "application/json")],
                                               body: Array((["events": .array(events)] as JSONValue).compactText().utf8))
                    let answer = try JSONValue.parse(posted.body)
                    guard posted.status == 200, answer["accepted"]?.int64Value == Int64(perBatch), let position = answer["position"]?.int64Value else {
                        outcomes.failures.withLock { $0.append("client \(c) batch \(b): \(posted.status) \(answer)") }
                        continue
                    }
                    outcomes.highest.withLock { $0 = max($0, position) }
                    let read = try http.send(method: "GET", path: "/v1/projects/pooled/usage?month=\(month)&min_position=\(position)",
                                             headers: [("Authorization", "Bearer \(readerKey)")])
                    let counted = try JSONValue.parse(read.body)["units"]?["counted"]?.int64Value ?? -1
                    if read.status != 200 || counted < Int64((b + 1) * perBatch) {
                        outcomes.failures.withLock { $0.append("client \(c) read after batch \(b): \(read.status), counted \(counted)") }
                    }
                }
            } catch {
                outcomes.failures.withLock { $0.append("client \(c): \(error)") }
            }
        }
        #expect(outcomes.failures.withLock { $0 }.isEmpty, "\(outcomes.failures.withLock { $0.prefix(5) })")
        let total = Int64(clients * batches * perBatch)
        let usage = try client.send(method: "GET", path: "/v1/projects/pooled/usage?month=\(month)&min_position=\(outcomes.highest.withLock { $0 })",
                                    headers: [("Authorization", "Bearer \(readerKey)")])
        #expect(try JSONValue.parse(usage.body)["units"]?["counted"]?.int64Value == total, "\(String(decoding: usage.body, as: UTF8.self))")

        // A replay of the billing projection, as the projector's login, while both serve.
        let replay = try Self.run(["replay", "--projection", "billing", "--yes", "--reason", "behind pgbouncer", "--operator", "bouncer_operator"],
                                  environment(db.projectorURL))
        #expect(replay.contains("swapped in billing") && replay.contains("recorded as projection.rebuilt"), "\(replay)")
        let after = try client.send(method: "GET", path: "/v1/projects/pooled/usage?month=\(month)", headers: [("Authorization", "Bearer \(readerKey)")])
        #expect(try JSONValue.parse(after.body)["units"]?["counted"]?.int64Value == total, "\(String(decoding: after.body, as: UTF8.self))")

        // The API's clients were served by at most the pooler's few server connections, and
        // no prepared statement went missing or clashed on the way.
        let apiClients = try bouncer.show("CLIENTS").filter { $0["user"] == TestDatabase.apiLogin }.count
        let apiServers = try bouncer.show("SERVERS").filter { $0["user"] == TestDatabase.apiLogin }.count
        #expect(apiClients > bouncer.poolSize && (1...bouncer.poolSize).contains(apiServers),
                "\(apiClients) API clients on \(apiServers) server connections")
        // The projector's session lock is held by a server process of its own, not by one
        // the pooler shares out (in this database: other tests' projectors hold theirs).
        let shared = Set(try bouncer.show("SERVERS").compactMap { $0["remote_pid"].flatMap { Int($0) } })
        let holder = try db.connect().query("""
            SELECT l.pid, a.usename::text FROM pg_locks l JOIN pg_stat_activity a USING (pid)
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """, [Int64(UInt32(bitPattern: AdvisoryLock.namespace)), Int64(AdvisoryLock.projector)])
        #expect(holder.rowCount == 1 && holder[0].string(1) == TestDatabase.projectorLogin, "\(holder.rows.map { $0.string(1) })")
        #expect(!shared.isEmpty && holder.rows.allSatisfy { !shared.contains($0.int(0) ?? 0) }, "the lock's holder is not among \(shared)")
        for (name, process) in [("api", api), ("projector", projector)] {
            #expect(process.process.isRunning, "\(name): \(process.errors.suffix(2_000))")
            #expect(!process.errors.contains("prepared statement") && !process.output.contains("prepared statement"),
                    "\(name): \(process.errors.suffix(2_000))")
        }
    }
}
