@testable import EventStore
import Foundation
import LedgerDomain
import Postgres
import EventStore
@testable import ProjectionEngine
import Projections
import Synchronization
import TestSupport
import Testing

/// A rebuild hands a projection only the event types it declares (`eventTypes`), and its
/// checkpoint still reaches the batch's end; the live projector hands it every event.
@Suite("Rebuilds by event type", .bounded)
struct RebuildEventTypesTests {
    /// Folds `t.1` and `t.3` only; counts the events it was handed of other types.
    struct TypedProjection: Projection {
        /// Events of other types it was handed (one count per test case: the cases run side by side).
        final class Count: Sendable { let value = Mutex(0) }
        let others = Count()
        let name = "typed_test"
        let version = 1
        let tables = ["seen"]
        var tablesSQL: [String] { ["CREATE TABLE seen (position bigint PRIMARY KEY, type text NOT NULL)"] }
        var eventTypes: Set<String>? { ["t.1", "t.3"] }

        func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
            var rows = RowBuffer(columns: 2)
            for event in events {
                guard eventTypes!.contains(event.type) else {
                    others.value.withLock { $0 += 1 }
                    continue
                }
                rows.append([event.position, event.type])
            }
            context.enqueue("INSERT INTO seen SELECT * FROM unnest($1::bigint[], $2::text[])", rows: rows)
        }
    }

    @Test("each consumer gets its types in log order, the unfiltered ones the batch itself, all reaching its last position")
    func splitter() {
        func recorded(_ position: Int64, _ type: String) -> RecordedEvent {
            RecordedEvent(position: position, eventID: UUID(), stream: "s", streamVersion: position, type: type, dataText: "{}",
                          metadataText: "{}", occurredAt: Timestamp(microseconds: position)!, recordedAt: Timestamp(microseconds: position)!,
                          correctsPosition: nil, idempotencyKey: nil, prevHash: HashChain.genesis, hash: HashChain.genesis)
        }
        let events = (1...12).map { recorded(Int64($0), "t.\($0 % 4)") }
        let batches = BatchSplitter([nil, ["t.1", "t.3"], ["t.2"], ["none"]]).batches(events)
        #expect(batches.map(\.through) == [12, 12, 12, 12])
        #expect(batches[0].events.map(\.position) == Array(1...12))
        #expect(batches[1].events.map(\.position) == [1, 3, 5, 7, 9, 11])
        #expect(batches[2].events.map(\.position) == [2, 6, 10])
        #expect(batches[3].events.isEmpty)
    }

    @Test("a rebuild folds only the declared types, its checkpoint at the head past batches with none of them, byte-identical to live",
          arguments: [1, 5, 1000])
    func rebuildByType(batchSize: Int) throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        // Runs of types the projection does not fold, longer than a batch, at the end too.
        let types = (0..<60).map { "t.\($0 < 40 ? $0 % 4 : 0)" } + ["t.1"] + (0..<12).map { _ in "t.2" }
        for (i, type) in types.enumerated() { _ = try store.append(AppendRequest(event("s-\(i % 5)", type))) }
        let projection = TypedProjection()
        #expect(try projectToHead([projection], db: db, batchSize: 16))
        #expect(projection.others.value.withLock { $0 } > 0, "the live projector hands every event")
        let connection = try db.connect()
        let live = try checksums(projection, on: connection)

        projection.others.value.withLock { $0 = 0 }
        try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: batchSize, log: { _, _, _ in }).rebuild([projection])
        #expect(projection.others.value.withLock { $0 } == 0, "the rebuild hands only t.1 and t.3")
        #expect(try checksums(projection, on: connection) == live)
        let head = try LogReader(connection).headPosition()
        #expect(try connection.query("SELECT position FROM proj_typed_test._checkpoint")[0].int64(0) == head)
        #expect(try connection.query("SELECT count(*) FROM proj_typed_test.seen")[0].int64(0) == 21)
    }
}
