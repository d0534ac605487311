import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import Synchronization
import Testing
import TestSupport

/// The log partitioned by ranges of position, with the contract of
/// docs/event-log.md intact across partition boundaries (migration 0005).
@Suite("The partitioned log", .bounded)
struct PartitionTests {
    static func partitions(_ db: TestDatabase) throws -> [(first: Int64, last: Int64)] {
        try db.connect().query("SELECT first_position, last_position FROM event_log_partitions ORDER BY first_position").rows.map {
            (try $0.requireInt64(0), try $0.requireInt64(1))
        }
    }

    @Test("group commits cross partition boundaries: gapless, chained, dense versions, and a partition always ready after the head")
    func groupCommitsCrossBoundaries() throws {
        let db = try TestDatabase.create(partitionSize: 100)
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        // Appends of 1 to 37 events from 8 threads at once: group commits of several
        // appends whose rows straddle the boundaries at 101, 201, …
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for a in 0..<40 {
                let events = (0..<(1 + (t * 7 + a * 3) % 37)).map { e in event("cross-\(t)-\(e % 3)", data: ["a": .integer(Int64(a))]) }
                do { _ = try store.append(AppendRequest(events: events)) } catch {
                    failures.withLock { $0.append("\(t)/\(a): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let conn = try db.connect()
        let head = try LogReader(conn).headPosition()
        let partitions = try Self.partitions(db)
        #expect(head > 1_000, "the run must cross several boundaries")
        // Contiguous partitions of 100 from position 1, the last one empty and ahead.
        #expect(partitions.first?.first == 1)
        for (a, b) in zip(partitions, partitions.dropFirst()) { #expect(b.first == a.last + 1) }
        #expect(partitions.allSatisfy { $0.last - $0.first + 1 == 100 })
        #expect((partitions.last?.first ?? 0) > head, "no empty partition after the head at \(head)")
        // Every batch that straddled a boundary went to both partitions, in one transaction.
        let straddled = try conn.query("""
            SELECT count(DISTINCT recorded_at) FROM events e
            WHERE EXISTS (SELECT 1 FROM events n WHERE n.position = e.position + 1 AND n.recorded_at = e.recorded_at)
              AND e.position % 100 = 0
            """)[0].requireInt64(0)
        #expect(straddled > 0, "no group commit crossed a boundary")
        let report = try ChainVerifier().verify(on: conn)
        #expect(report.isValid && report.verified == head && report.warnings.isEmpty, "\(String(describing: report.failure)) \(report.warnings)")
        let holes = try conn.query("""
            SELECT count(*) FROM (SELECT stream_version, row_number() OVER (PARTITION BY stream ORDER BY position) AS n FROM events) x
            WHERE stream_version <> n
            """)[0].requireInt64(0)
        #expect(holes == 0)
        let versions = try conn.query("""
            SELECT count(*) FROM event_streams s WHERE s.version <> (SELECT max(stream_version) FROM events e WHERE e.stream = s.stream)
            """)[0].requireInt64(0)
        #expect(versions == 0, "event_streams holds each stream's version")
    }

    @Test("ids, idempotency keys and stream versions are unique across partitions")
    func uniquenessAcrossPartitions() throws {
        let db = try TestDatabase.create(partitionSize: 100)
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        let chosen = UUID()
        let first = try store.append(AppendRequest(events: [event("unique-a", id: chosen)], idempotencyKey: "append-key-1"))
        let keyed = try store.append(AppendRequest(events: [event("unique-a", key: "event-key-1")]))
        // Into the third partition.
        for i in 0..<25 { _ = try store.append(AppendRequest(events: (0..<10).map { _ in event("filler-\(i % 4)") })) }
        #expect(try store.log.headPosition() > 200)
        // The same caller-chosen id, in a later partition: refused, nothing written.
        let head = try store.log.headPosition()
        #expect(throws: AppendError.self) { try store.append(AppendRequest(event("unique-b", id: chosen))) }
        #expect(try store.log.headPosition() == head)
        // The append-level key answers the original append, from two partitions back.
        let replay = try store.append(AppendRequest(events: [event("unique-a", id: chosen)], idempotencyKey: "append-key-1"))
        #expect(replay.replayed && replay.events.map(\.position) == first.events.map(\.position))
        // The event-level key, within a new append: recorded already, not written again.
        let mixed = try store.append(AppendRequest(events: [event("unique-a", key: "event-key-1"), event("unique-c")]))
        #expect(mixed.events[0].alreadyRecorded && mixed.events[0].position == keyed.events[0].position)
        // The stream goes on at version 3 in a later partition; version 2 again is refused
        // by the log itself, for a superuser holding the lock too.
        let next = try store.append(AppendRequest(event("unique-a"), expected: .exactly(2)))
        #expect(next.events[0].streamVersion == 3 && next.events[0].position > 200)
        let superuser = try db.connect()
        let top = try LogReader(superuser).read(after: try LogReader(superuser).headPosition() - 1, limit: 1)[0]
        #expect(throws: PostgresError.self) {
            try superuser.transaction { tx in
                try tx.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
                try tx.query("""
                    INSERT INTO events (position, event_id, stream, stream_version, type, data, metadata, occurred_at, recorded_at, prev_hash, hash)
                    VALUES ($1, gen_random_uuid(), 'unique-a', 2, 'forged', '{}', '{}', now(), now(), $2, sha256('x'))
                    """, [top.position + 1, PostgresBytes(top.hash)])
            }
        }
    }

    @Test("a partition refuses statements that name it: insert, update, delete, truncate")
    func partitionsGuardThemselves() throws {
        let db = try TestDatabase.create(partitionSize: 100)
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        _ = try store.append(AppendRequest(events: (0..<5).map { _ in event("guard") }))
        let superuser = try db.connect()
        let head = try LogReader(superuser).read(after: 4, limit: 1)[0]
        for statement in [
            "UPDATE events_1 SET type = 'forged' WHERE position = 1",
            "DELETE FROM events_1 WHERE position = 1",
            "TRUNCATE events_1",
            "TRUNCATE events",
        ] {
            #expect(throws: PostgresError.self, "\(statement)") { try superuser.query(statement) }
        }
        // A direct insert into the partition skips the log's checks, so it is refused
        // outright, even under the lock and correctly chained.
        #expect(throws: PostgresError.self) {
            try superuser.transaction { tx in
                try tx.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
                try tx.query("""
                    INSERT INTO events_1 (position, event_id, stream, stream_version, type, data, metadata, occurred_at, recorded_at, prev_hash, hash)
                    VALUES (6, gen_random_uuid(), 'guard', 6, 'forged', '{}', '{}', now(), now(), $1, sha256('x'))
                    """, [PostgresBytes(head.hash)])
            }
        }
        #expect(try LogReader(superuser).headPosition() == 5)
        // Verify names a partition whose guard is disabled.
        try superuser.query("ALTER TABLE events_1 DISABLE TRIGGER events_partition_no_insert")
        #expect(try ChainVerifier().verify(on: superuser).warnings.contains { $0.contains("partition events_1") })
    }

    @Test("migration 0005 turns a log that has events into its first partition; appends go on from there")
    func migratingAnExistingLog() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let all = try Migration.load(from: TestDatabase.migrationsDirectory)
        let superuser = try db.connect()
        try Migrator(migrations: all.filter { $0.version <= 4 }).migrate(on: superuser)
        // Three events written as the appender of migration 0004 wrote them.
        var previous = HashChain.genesis
        let recordedAt = Timestamp(iso8601: "2026-11-01T00:00:00Z")!
        let ids = [UUID(), UUID(), UUID()]
        for (i, stream) in ["old-a", "old-a", "old-b"].enumerated() {
            let position = Int64(i + 1), version: Int64 = i == 1 ? 2 : 1
            let key: String? = i == 2 ? "old-key" : nil
            let fields = HashChain.Fields(position: position, eventID: ids[i], stream: stream, streamVersion: version, type: "test.old",
                                          occurredAt: recordedAt, recordedAt: recordedAt, correctsPosition: nil, idempotencyKey: key,
                                          dataText: "{}", metadataText: "{}")
            let hash = HashChain.hash(previous: previous, fields: fields)
            try superuser.transaction { tx in
                try tx.query("SELECT pg_advisory_xact_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
                try tx.query("""
                    INSERT INTO events (position, event_id, stream, stream_version, type, data, metadata, occurred_at, recorded_at,
                                        idempotency_key, request_hash, prev_hash, hash)
                    VALUES ($1, $2::uuid, $3, $4, 'test.old', '{}', '{}', $5::timestamptz, $5::timestamptz, $6, $7, $8, $9)
                    """, [position, ids[i].uuidString, stream, version, "2026-11-01T00:00:00Z", key,
                          key.map { PostgresBytes(SHA256.hash(Array($0.utf8))) }, PostgresBytes(previous), PostgresBytes(hash)])
            }
            previous = hash
        }
        try Migrator(migrations: all).migrate(on: superuser)
        try db.ensureServiceLogin()
        try superuser.query("UPDATE event_log_settings SET partition_size = 100")
        #expect(try Self.partitions(db).first.map { [$0.first, $0.last] } == [1, 3])
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        let next = try store.append(AppendRequest(events: [event("old-a"), event("old-b")]))
        #expect(next.events.map(\.position) == [4, 5])
        #expect(next.events.map(\.streamVersion) == [3, 2])
        #expect(throws: AppendError.self) { try store.append(AppendRequest(event("new", id: ids[0]))) }
        // The key of the old event is found (recorded already, or a conflict): never written twice.
        let retried = try? store.append(AppendRequest(events: [EventToAppend(stream: "old-b", type: "test.old", data: [:],
            metadata: EventMetadata(actor: testActor), idempotencyKey: "old-key")]))
        #expect(retried == nil || retried?.events.first?.position == 3)
        #expect(try store.log.headPosition() == 5)
        let report = try ChainVerifier().verify(on: superuser)
        #expect(report.isValid && report.verified == 5 && report.warnings.isEmpty, "\(String(describing: report.failure)) \(report.warnings)")
        let partitions = try Self.partitions(db)
        #expect(partitions.count >= 2 && partitions[1].first == 4)
        for (a, b) in zip(partitions, partitions.dropFirst()) { #expect(b.first == a.last + 1) }
    }
}
