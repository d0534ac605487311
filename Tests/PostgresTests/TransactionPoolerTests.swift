import Foundation
import Postgres
import Synchronization
import Testing
import Threads
import TestSupport

/// Connections through a real PgBouncer in transaction pooling mode (Debian's 1.18, which
/// does not track protocol-level prepared statements): statements are sent unnamed, the
/// settings a connection makes follow it from one server connection to the next, a
/// transaction keeps its server connection, and session-holding work goes straight to
/// PostgreSQL (docs/scaling.md, "PgBouncer").
@Suite("Connections through PgBouncer in transaction pooling", .bounded)
struct TransactionPoolerTests {
    /// What the worker threads saw: wrong answers, and errors.
    final class Outcomes: Sendable {
        let wrong = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
    }

    /// A PgBouncer in front of the test cluster for its superuser, with `poolSize` server
    /// connections, and the superuser's URL through it.
    static func bouncer(poolSize: Int) throws -> (TestPgBouncer, pooled: String, direct: String) {
        let direct = try TestPostgres.requireURL()
        let components = try #require(URLComponents(string: direct))
        let bouncer = try TestPgBouncer(cluster: direct, logins: [(components.user ?? "postgres", components.password ?? "")],
                                        poolSize: poolSize)
        return (bouncer, bouncer.url(direct), direct)
    }

    @Test("named statements clash on a server connection two clients share; unnamed ones run on it in turn, each its own")
    func unnamedStatementsShareAServerConnection() throws {
        let (bouncer, pooled, _) = try Self.bouncer(poolSize: 1)
        defer { bouncer.stop() }
        // The hazard, shown so that this test can fail: both clients name their first
        // statement alike, on the one server connection behind them.
        let first = try PostgresConnection(conninfo: pooled)
        let second = try PostgresConnection(conninfo: pooled)
        #expect(try first.query("SELECT $1::int + 1", [41])[0].int(0) == 42)
        let clash = #expect(throws: PostgresError.self) { try second.query("SELECT $1::text || '!'", ["x"]) }
        #expect(clash?.sqlState == "42P05", "\(String(describing: clash))")

        let a = try PostgresConnection(conninfo: pooled, statements: .unnamed)
        let b = try PostgresConnection(conninfo: pooled, statements: .unnamed)
        for i in 0..<20 {
            #expect(try a.query("SELECT $1::int + 1", [i])[0].int(0) == i + 1)
            #expect(try b.query("SELECT $1::text || '!'", ["b\(i)"])[0].string(0) == "b\(i)!")
            #expect(try a.query("SELECT $1::bigint * 2", [Int64(i)], format: .binary)[0].binaryInt64(0) == Int64(2 * i))
        }
    }

    @Test("a pool behind the pooler: many threads on two server connections, each answer its own; a transaction keeps one server connection")
    func poolUnderContention() throws {
        let (bouncer, pooled, direct) = try Self.bouncer(poolSize: 2)
        defer { bouncer.stop() }
        let pool = PostgresPool(conninfo: pooled, directConninfo: direct, maximumConnections: 8)
        defer { pool.closeIdle() }
        #expect(pool.isBehindTransactionPooler)
        #expect(!PostgresPool(conninfo: direct).isBehindTransactionPooler)
        let outcomes = Outcomes()
        // Threads of their own: as many at once as asked, whatever the cores.
        ThreadGroup.run(8) { worker in
            for i in 0..<40 {
                do {
                    let answer = try pool.read { try $0.query("SELECT $1::text || ':' || $2::int", ["w\(worker)", i])[0].string(0) }
                    if answer != "w\(worker):\(i)" { outcomes.wrong.add(1, ordering: .relaxed) }
                    // Several statements in one transaction: the server connection stays the
                    // client's until COMMIT, whoever else waits for it.
                    let same = try pool.transaction { tx -> Bool in
                        let before = try tx.query("SELECT pg_backend_pid()")[0].int(0)
                        try tx.pipeline([("SELECT set_config('ledger.test', $1, true)", ["w\(worker)-\(i)"])])
                        let setting = try tx.query("SELECT current_setting('ledger.test'), pg_backend_pid()")
                        return setting[0].string(0) == "w\(worker)-\(i)" && setting[0].int(1) == before
                    }
                    if !same { outcomes.wrong.add(1, ordering: .relaxed) }
                } catch {
                    outcomes.failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(outcomes.failures.withLock { $0 }.isEmpty, "\(outcomes.failures.withLock { $0.prefix(3) })")
        #expect(outcomes.wrong.load(ordering: .relaxed) == 0)
        // Eight clients, served by at most two server connections.
        let user = URLComponents(string: direct)?.user ?? "postgres"
        let clients = try bouncer.show("CLIENTS").filter { $0["user"] == user }.count
        let servers = try bouncer.show("SERVERS").filter { $0["user"] == user }.count
        #expect(clients >= 4 && (1...2).contains(servers), "\(clients) clients, \(servers) server connections")
    }

    @Test("the settings a connection makes hold on whichever server connection serves it; session work goes to PostgreSQL itself")
    func settingsFollowTheClient() throws {
        let (bouncer, pooled, direct) = try Self.bouncer(poolSize: 1)
        defer { bouncer.stop() }
        let ours = try PostgresConnection(conninfo: pooled, statements: .unnamed)
        let other = try PostgresConnection(conninfo: pooled, statements: .unnamed)
        try other.query("SET TimeZone = 'Asia/Tokyo'")
        for _ in 0..<5 {
            #expect(try other.query("SELECT current_setting('TimeZone')")[0].string(0) == "Asia/Tokyo")
            #expect(try ours.query("SELECT current_setting('TimeZone'), '2026-01-01 00:00:00+00'::timestamptz::text")[0].string(1)
                    == "2026-01-01 00:00:00+00")
        }
        // A session lock taken through the pooler would stay on a server connection the
        // next transaction may not have; the pool lends a connection of PostgreSQL's own.
        let pool = PostgresPool(conninfo: pooled, directConninfo: direct, maximumConnections: 1)
        defer { pool.closeIdle() }
        try pool.withSessionConnection { connection throws in
            #expect(connection.conninfo == direct && connection.statements == .prepared)
            #expect(try connection.query("SELECT pg_backend_pid()")[0].int(0) == Int(connection.backendPID))
            #expect(try connection.query("SELECT pg_try_advisory_lock(4242, 1)")[0].bool(0) == true)
            #expect(try connection.query("SELECT pg_advisory_unlock(4242, 1)")[0].bool(0) == true)
        }
        try pool.withConnection { #expect($0.statements == .unnamed) }
    }
}
