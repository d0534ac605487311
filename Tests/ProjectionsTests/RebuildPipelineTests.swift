import Dispatch
import EventStore
import Foundation
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The rebuild folds every projection at its own pace, each batch decoded ahead, from
/// one read of the log.
@Suite("Rebuild pipelines", .bounded)
struct RebuildPipelineTests {
    /// A projection that decodes ahead (`prepare`) and records, per event, whether the
    /// fold got the prepared batch, so that the test sees the pipeline was used.
    struct PreparingProjection: Projection {
        let name = "preparing_test"
        let version = 1
        let tables = ["seen"]
        var tablesSQL: [String] { ["CREATE TABLE seen (position bigint PRIMARY KEY, prepared boolean NOT NULL)"] }
        struct Prepared: Sendable { var positions: [Int64] }

        func prepare(_ events: ArraySlice<RecordedEvent>) -> (any Sendable)? { Prepared(positions: events.map(\.position)) }

        func apply(prepared: any Sendable, events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
            let positions = try #require(prepared as? Prepared).positions
            #expect(positions == events.map(\.position), "the prepared batch is exactly the batch applied")
            try write(events, prepared: true, in: context)
        }

        func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
            try write(events, prepared: false, in: context)
        }

        private func write(_ events: ArraySlice<RecordedEvent>, prepared: Bool, in context: ProjectionContext) throws {
            var rows = RowBuffer(columns: 2)
            for event in events {
                try folding(event) {
                    if event.type == "poison" { throw ProjectionError("cannot apply a poison event") }
                    rows.append([event.position, prepared])
                }
            }
            context.enqueue("INSERT INTO seen SELECT * FROM unnest($1::bigint[], $2::boolean[])", rows: rows)
        }
    }

    @Test("projections of different speeds rebuild side by side from one read, byte-identical to the live ones", arguments: [1, 7, 50, 1000])
    func sideBySide(batchSize: Int) throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<230 { _ = try store.append(AppendRequest(event("s-\(i % 17)", "t.\(i % 5)"))) }
        let projections: [any Projection] = [LogIndexProjection(), PreparingProjection(), PoisonProjection()]
        #expect(try projectToHead(projections, db: db, batchSize: 33))
        let connection = try db.connect()
        let live = try projections.map { try checksums($0, on: connection) }
        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: batchSize, log: { _, _, _ in }).rebuild(projections)
        // The preparing projection's `seen.prepared` differs by design (the live projector
        // prepares too, but a set-aside or short batch may not): compare its positions.
        #expect(try checksums(projections[0], on: connection) == live[0])
        #expect(try checksums(projections[2], on: connection) == live[2])
        let seen = try connection.query("SELECT count(*), count(*) FILTER (WHERE prepared), min(position), max(position) FROM proj_preparing_test.seen")[0]
        #expect(seen.int64(0) == 230 && seen.int64(2) == 1 && seen.int64(3) == 230)
        #expect(seen.int64(1) == 230, "every rebuilt batch was decoded ahead")
    }

    /// A projection whose unique index is deferred; `duplicate` writes every row twice.
    struct DeferredIndexProjection: Projection {
        var duplicate = false
        let name = "deferred_test"
        let version = 1
        let tables = ["rows"]
        var tablesSQL: [String] { ["CREATE TABLE rows (position bigint NOT NULL, stream text NOT NULL)"] }
        var deferredIndexesSQL: [String] { ["ALTER TABLE rows ADD PRIMARY KEY (position)"] }

        func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
            var rows = RowBuffer(columns: 2)
            for event in events {
                rows.append([event.position, event.stream])
                if duplicate { rows.append([event.position, event.stream]) }
            }
            try context.copy(into: "rows", columns: ["position", "stream"], rows: rows)
        }
    }

    @Test("a deferred index exists in a live schema from the start and in a rebuilt one once it is built; rows that break it fail the rebuild and swap nothing")
    func deferredIndexes() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<120 { _ = try store.append(AppendRequest(event("s-\(i % 7)"))) }
        let projection = DeferredIndexProjection()
        #expect(try projectToHead([projection], db: db, batchSize: 25))
        let connection = try db.connect()
        func hasPrimaryKey(_ schema: String) throws -> Bool {
            try connection.query("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND tablename = 'rows' AND indexname = 'rows_pkey'",
                                 [schema]).rowCount == 1
        }
        #expect(try hasPrimaryKey("proj_deferred_test"))
        let live = try checksums(projection, on: connection)

        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 10, log: { _, _, _ in }).rebuild([projection])
        #expect(try hasPrimaryKey("proj_deferred_test"))
        #expect(try checksums(projection, on: connection) == live)

        #expect(throws: PostgresError.self) {
            try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 10, log: { _, _, _ in })
                .rebuild([DeferredIndexProjection(duplicate: true)])
        }
        #expect(try checksums(projection, on: connection) == live, "the live schema is untouched")
        #expect(try hasPrimaryKey("proj_deferred_test"))
    }

    @Test("a poison event fails the whole rebuild, naming the event; the others stop too and nothing is swapped", arguments: [1, 4, 100])
    func poisonStopsTheRebuild(batchSize: Int) throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<40 { _ = try store.append(AppendRequest(event("s-\(i % 3)"))) }
        let catalogue = LogIndexProjection()
        #expect(try projectToHead([catalogue], db: db, batchSize: 16))
        let poison = try store.append(AppendRequest(event("s-x", "poison"))).position
        for i in 0..<300 { _ = try store.append(AppendRequest(event("s-\(i % 3)"))) }
        let connection = try db.connect()
        let oid = try connection.query("SELECT oid FROM pg_namespace WHERE nspname = 'proj_catalogue'")[0].int64(0)

        let rebuilder = ProjectionRebuilder(conninfo: db.projectorURL, batchSize: batchSize, log: { _, _, _ in })
        let failure = #expect(throws: ProjectionFailure.self) {
            try rebuilder.rebuild([catalogue, PreparingProjection(), PoisonProjection()])
        }
        #expect(failure?.position == poison)
        #expect(failure?.projection == "preparing_test" || failure?.projection == "poison_test")
        #expect(try connection.query("SELECT oid FROM pg_namespace WHERE nspname = 'proj_catalogue'")[0].int64(0) == oid)
        #expect(try connection.query("SELECT count(*) FROM pg_namespace WHERE nspname IN ('proj_preparing_test', 'proj_poison_test')")[0].int64(0) == 0)
        // The rebuild lock was released: another rebuild can start at once.
        try rebuilder.rebuild([catalogue])
        #expect(try catalogueTotals(on: connection).types == 341)
    }

    @Test("a rebuild's schema tells listeners nothing until it is swapped in, then its position once")
    func notifiesOnlyWhenSwapped() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<120 { _ = try store.append(AppendRequest(event("s-\(i % 7)"))) }
        let catalogue = LogIndexProjection()
        #expect(try projectToHead([catalogue], db: db, batchSize: 50))
        let listener = try db.connect()
        try listener.listen(Projector.notificationChannel)
        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 10, log: { _, _, _ in }).rebuild([catalogue])
        // Delivered at the swap's commit, before `rebuild` returns; polled until a quiet second.
        var payloads: [String] = []
        while case let notes = try listener.waitForNotifications(timeout: 1), !notes.isEmpty {
            payloads += notes.map(\.payload)
        }
        #expect(payloads == ["catalogue:120"], "twelve batches folded into the build schema, one notification: the swap's")
    }
}
