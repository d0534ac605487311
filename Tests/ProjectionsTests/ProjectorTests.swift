import Dispatch
import EventStore
import Foundation
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

@Suite("The projector", .bounded)
struct ProjectorTests {
    @Test("folds the log into the catalogue, each event once, across batches")
    func foldsTheCatalogue() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<120 { _ = try store.append(AppendRequest(event("project-\(i % 7)", "type.\(i % 3)"))) }
        let projector = ProjectorThread(url: db.projectorURL, projections: [LogIndexProjection()], batchSize: 25, pollInterval: 0.2)
        #expect(try waitForProjections([LogIndexProjection()], url: db.writerURL))
        // Events appended while it runs are picked up through NOTIFY.
        for i in 0..<30 { _ = try store.append(AppendRequest(event("payer-\(i % 2)", "type.9"))) }
        #expect(try waitForProjections([LogIndexProjection()], url: db.writerURL))
        projector.stop()
        let connection = try db.connect()
        let totals = try catalogueTotals(on: connection)
        #expect(totals.types == 150 && totals.streams == 150 && totals.head == 150)
        let row = try connection.query("SELECT version, events, first_position, last_type, category FROM proj_catalogue.streams WHERE stream = 'project-3'")[0]
        #expect(row.int64(0) == 17 && row.int64(1) == 17 && row.int64(2) == 4)
        #expect(row.string(3) == "type.1" && row.string(4) == "project")  // i = 115 was its last
    }

    @Test("a poison event stops its projection at the event before it; the others go on")
    func poisonEventStopsOneProjection() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<10 { _ = try store.append(AppendRequest(event("org-\(i)"))) }
        let poison = try store.append(AppendRequest(event("org-x", "poison"))).position
        for i in 0..<10 { _ = try store.append(AppendRequest(event("org-\(i)"))) }
        let projections: [any Projection] = [PoisonProjection(), LogIndexProjection()]
        let projector = ProjectorThread(url: db.projectorURL, projections: projections, batchSize: 7, pollInterval: 0.2)
        #expect(try waitForProjections(projections, url: db.writerURL))
        projector.stop()
        let connection = try db.connect()
        let checkpoint = try #require(try ProjectionSchema.progress("proj_poison_test", on: connection))
        #expect(checkpoint.position == poison - 1)
        #expect(checkpoint.failedPosition == poison)
        #expect(checkpoint.error?.contains("cannot apply a poison event") == true)
        #expect(try connection.query("SELECT max(position) FROM proj_poison_test.seen")[0].int64(0) == poison - 1)
        #expect(try catalogueTotals(on: connection).types == 21)
        #expect(projector.projector.status.withLock { $0.failed } == ["poison_test"])
    }

    @Test("replay rebuilds byte-identical tables and swaps them in")
    func replayIsByteIdentical() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<400 { _ = try store.append(AppendRequest(event("s-\(i % 37)", "t.\(i % 11)", ["i": .integer(Int64(i))]))) }
        let catalogue = LogIndexProjection()
        let projector = ProjectorThread(url: db.projectorURL, projections: [catalogue], batchSize: 64, pollInterval: 0.2)
        #expect(try waitForProjections([catalogue], url: db.writerURL))
        let connection = try db.connect()
        let live = try checksums(catalogue, on: connection)
        let oid = try connection.query("SELECT oid FROM pg_namespace WHERE nspname = 'proj_catalogue'")[0].int64(0)
        let listener = try db.connect()
        try listener.listen(Projector.notificationChannel)
        // The projector keeps running while the rebuild swaps underneath it.
        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 50, log: { _, _, _ in }).rebuild([catalogue])
        #expect(try checksums(catalogue, on: connection) == live)
        // Caches of the projection are told of the swap, with the head it reached (by the
        // rebuild's batches, committed with the swap, and by the swap itself).
        var heard: [String] = []
        for _ in 0..<20 where !heard.contains("catalogue:400") {
            heard += try listener.waitForNotifications(timeout: 0.1).map(\.payload)
        }
        #expect(heard.contains("catalogue:400"), "\(heard)")
        #expect(try connection.query("SELECT oid FROM pg_namespace WHERE nspname = 'proj_catalogue'")[0].int64(0) != oid, "a new schema was swapped in")
        #expect(try connection.query("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'proj_catalogue__%'")[0].int64(0) == 0)
        // And it keeps projecting into the swapped-in schema.
        for i in 0..<20 { _ = try store.append(AppendRequest(event("late-\(i)"))) }
        #expect(try waitForProjections([catalogue], url: db.writerURL))
        projector.stop()
        #expect(try catalogueTotals(on: connection).types == 420)
    }

    @Test("replay while events keep arriving loses and repeats nothing")
    func replayUnderLoad() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<300 { _ = try store.append(AppendRequest(event("s-\(i % 13)"))) }
        let catalogue = LogIndexProjection()
        let projector = ProjectorThread(url: db.projectorURL, projections: [catalogue], batchSize: 40, pollInterval: 0.2)
        let writer = Thread {
            for i in 0..<300 { _ = try? store.append(AppendRequest(event("w-\(i % 5)"))) }
        }
        writer.start()
        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 30, log: { _, _, _ in }).rebuild([catalogue])
        #expect(try Poll.until { try store.log.headPosition() == 600 })
        #expect(try waitForProjections([catalogue], url: db.writerURL))
        projector.stop()
        let connection = try db.connect()
        let totals = try catalogueTotals(on: connection)
        #expect(totals.types == 600 && totals.streams == 600)
    }

    @Test("a projection whose code version changed is rebuilt by the projector")
    func versionBumpRebuilds() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<50 { _ = try store.append(AppendRequest(event("s-\(i % 3)"))) }
        var projector = ProjectorThread(url: db.projectorURL, projections: [LogIndexProjection()], batchSize: 50, pollInterval: 0.2)
        #expect(try waitForProjections([LogIndexProjection()], url: db.writerURL))
        projector.stop()
        let connection = try db.connect()
        try connection.query("UPDATE proj_catalogue._checkpoint SET version = 0")
        try connection.query("DELETE FROM proj_catalogue.streams")   // a stale table the rebuild must replace
        projector = ProjectorThread(url: db.projectorURL, projections: [LogIndexProjection()], batchSize: 50, pollInterval: 0.2)
        // The stale schema is already at the head, so wait for the version, not the position.
        #expect(try Poll.until { try ProjectionSchema.progress("proj_catalogue", on: connection)?.version == 1 })
        projector.stop()
        #expect(try catalogueTotals(on: connection).streams == 50)
    }
}
