import EventStore
import Postgres
import Testing
import TestSupport

@Suite("The log is immutable", .bounded)
struct ImmutabilityTests {
    static let changes = [
        "UPDATE events SET type = 'forged' WHERE position = 1",
        "DELETE FROM events WHERE position = 1",
        "TRUNCATE events",
    ]

    @Test("the service's role has no UPDATE, DELETE or TRUNCATE privilege", arguments: changes)
    func serviceRoleLacksPrivilege(_ sql: String) throws {
        try withStore { store, db in
            _ = try store.append(AppendRequest(event("org-1")))
            let service = try db.connectAsWriter()
            do {
                try service.query(sql)
                Issue.record("the service role could run: \(sql)")
            } catch let error as PostgresError {
                #expect(error.sqlState == PostgresError.SQLState.insufficientPrivilege)
            }
            #expect(try store.log.headPosition() == 1)
        }
    }

    @Test("a superuser is stopped by the triggers", arguments: changes)
    func superuserStoppedByTrigger(_ sql: String) throws {
        try withStore { store, db in
            _ = try store.append(AppendRequest(event("org-1")))
            let superuser = try db.connect()
            do {
                try superuser.query(sql)
                Issue.record("a superuser could run: \(sql)")
            } catch let error as PostgresError {
                #expect(error.sqlState == "23001", "restrict_violation from the trigger, got \(error)")
                #expect(error.message.contains("append-only"))
            }
            #expect(try store.log.headPosition() == 1)
        }
    }

    @Test("with the triggers disabled a superuser can alter a row, and verify names the position")
    func tamperingIsDetected() throws {
        try withStore { store, db in
            for i in 0..<5 { _ = try store.append(AppendRequest(event("org-\(i)", data: ["amount": "100"]))) }
            let superuser = try db.connect()
            #expect(try ChainVerifier().verify(on: superuser).isValid)
            try superuser.query("ALTER TABLE events DISABLE TRIGGER events_no_update")
            try superuser.query(#"UPDATE events SET data = '{"amount": "1000000"}' WHERE position = 3"#)
            try superuser.query("ALTER TABLE events ENABLE TRIGGER events_no_update")
            let report = try ChainVerifier().verify(on: superuser)
            #expect(report.failure?.position == 3)
            #expect(report.verified == 2)
        }
    }

    @Test("a forger who recomputes the altered row's own hash still breaks the next link")
    func relinkingIsDetected() throws {
        try withStore { store, db in
            for i in 0..<6 { _ = try store.append(AppendRequest(event("org-\(i)"))) }
            let superuser = try db.connect()
            try superuser.query("SET session_replication_role = replica")
            try superuser.query(#"UPDATE events SET data = '{"n": 2}' WHERE position = 2"#)
            try superuser.query("UPDATE events SET hash = sha256(prev_hash || event_canonical_bytes(events)) WHERE position = 2")
            let report = try ChainVerifier().verify(on: superuser)
            #expect(report.failure?.position == 3)
            #expect(report.warnings.isEmpty, "session_replication_role leaves the triggers enabled")
        }
    }

    @Test("verify names the position of a deleted row")
    func deletionIsDetected() throws {
        try withStore { store, db in
            for i in 0..<6 { _ = try store.append(AppendRequest(event("org-\(i)"))) }
            let superuser = try db.connect()
            try superuser.query("SET session_replication_role = replica")
            try superuser.query("DELETE FROM events WHERE position = 5")
            let report = try ChainVerifier().verify(on: superuser)
            #expect(report.failure?.position == 5)
            #expect(report.failure?.reason.contains("missing") == true)
        }
    }

    @Test("verify warns when a trigger is disabled")
    func disabledTriggerWarning() throws {
        try withStore { _, db in
            let superuser = try db.connect()
            try superuser.query("ALTER TABLE events DISABLE TRIGGER events_no_delete")
            #expect(try ChainVerifier().verify(on: superuser).warnings == ["trigger events_no_delete is disabled"])
        }
    }

    @Test("an insert that bypasses the appender is refused: without the lock, with a gap, or off the chain")
    func insertsOutsideTheAppender() throws {
        try withStore { store, db in
            _ = try store.append(AppendRequest(event("org-1")))
            let superuser = try db.connect()
            let head = try LogReader(superuser).read(after: 0, limit: 1)[0]
            func forge(position: Int64, prevHash: [UInt8], lock: Bool) throws {
                try superuser.transaction { tx in
                    if lock { try tx.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))") }
                    try tx.query("""
                        INSERT INTO events (position, event_id, stream, stream_version, type, data, metadata, occurred_at,
                            recorded_at, prev_hash, hash)
                        VALUES ($1, gen_random_uuid(), 'org-2', 1, 'forged', '{}', '{}', now(), now(), $2, sha256('x'))
                        """, [position, PostgresBytes(prevHash)])
                }
            }
            #expect(throws: PostgresError.self) { try forge(position: 2, prevHash: head.hash, lock: false) }
            #expect(throws: PostgresError.self) { try forge(position: 3, prevHash: head.hash, lock: true) }
            #expect(throws: PostgresError.self) { try forge(position: 2, prevHash: HashChain.genesis, lock: true) }
            #expect(try store.log.headPosition() == 1)
        }
    }
}
