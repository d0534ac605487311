import Dispatch
import EventStore
import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport
import Threads

@Suite("Connections, reconnection and notifications", .bounded)
struct ConnectionTests {
    /// Ends every session of the test's service role, as a server restart would.
    static func terminateServiceSessions(_ db: TestDatabase) throws {
        try db.connect().query("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND usename = $1
            """, [TestDatabase.writerLogin])
    }

    /// Until the terminated sessions have ended, so that the next step meets dead connections.
    static func serviceSessionsGone(_ db: TestDatabase) throws -> Bool {
        let admin = try db.connect()
        return try Poll.until(timeout: 10) {
            try admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND usename = $1",
                            [TestDatabase.writerLogin]).rowCount == 0
        }
    }

    @Test("the pool and the appender recover after their sessions are terminated")
    func reconnects() throws {
        try withStore { store, db in
            _ = try store.append(AppendRequest(event("org-1")))
            #expect(try store.log.headPosition() == 1)
            try Self.terminateServiceSessions(db)
            #expect(try Self.serviceSessionsGone(db))
            _ = try store.append(AppendRequest(event("org-1")))
            #expect(try store.log.headPosition() == 2)
            try Self.terminateServiceSessions(db)
            #expect(try Self.serviceSessionsGone(db))
            #expect(try store.log.read(after: 0, limit: 10).count == 2)
        }
    }

    @Test("errors carry the SQLSTATE")
    func sqlState() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        do {
            try connection.query("SELECT * FROM no_such_table")
            Issue.record("query on a missing table succeeded")
        } catch let error as PostgresError {
            #expect(error.sqlState == PostgresError.SQLState.undefinedTable)
            #expect(error.code == .serverError)
        }
        // Parameters never change the statement: a value that looks like SQL stays a value.
        let hostile = "x'); DROP TABLE pg_class; --"
        #expect(try connection.query("SELECT $1::text", [hostile])[0].string(0) == hostile)
    }

    @Test("an append notifies listeners with the new head position")
    func notifies() throws {
        try withStore { store, db in
            let listener = try PostgresConnection(conninfo: db.writerURL)
            try listener.listen(EventStore.notificationChannel)
            _ = try store.append(AppendRequest(events: [event("org-1"), event("org-2")]))
            var received: [PostgresNotification] = []
            let deadline = Date().addingTimeInterval(5)
            while received.isEmpty && Date() < deadline {
                received += try listener.waitForNotifications(timeout: 0.5)
            }
            #expect(received.map(\.payload) == ["2"])
        }
    }

    @Test("the pool hands out at most its size and serves many threads")
    func poolUnderLoad() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let pool = PostgresPool(conninfo: db.superuserURL, maximumConnections: 3)
        let failures = Atomic<Int>(0)
        ThreadGroup.run(40, name: "pool-user") { i in
            do {
                let value = try pool.withConnection { try $0.query("SELECT $1::int + 1", [i])[0].int(0) }
                if value != i + 1 { failures.add(1, ordering: .relaxed) }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let sessions = try db.connect().query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")[0].int(0)
        #expect((sessions ?? 0) <= 4)
    }
}
