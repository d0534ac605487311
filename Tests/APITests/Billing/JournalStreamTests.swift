import API
import EventStore
import Foundation
import LedgerDomain
import ProjectionEngine
import Projections
import TestSupport
import Synchronization
import Testing

/// The journal's rows sent to the server while the batch that makes them is still being
/// folded (`BillingProjection.journalStreamBytes`): a read the fold makes meanwhile ends the
/// COPY under way, the next rows open another, and the tables are those of a fold that
/// sent every row at the end.
@Suite("The journal streamed while a batch folds", .bounded)
struct JournalStreamTests {
    @Test("a batch whose fold reads a hold of an earlier batch between two streamed entries writes the same journal")
    func readBetweenStreamedRows() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        let placed = try f.append(HoldPlaced(holdID: "h1", projectID: "web", pool: .payer("acme"), amount: Millicredits(500),
                                             description: "x"), stream: "hold-h1")
        // The next batch of the rebuild: an entry (its row streamed), the capture of the hold
        // of the batch before (read from the table: the COPY under way ends), an entry.
        _ = try f.credit(.payer("acme"), .purchase, 1_000)
        try f.append(HoldCaptured(holdID: "h1", amount: Millicredits(300)), stream: "hold-h1")
        _ = try f.credit(.payer("acme"), .grant, 70)
        try f.settle()

        let connection = try f.service.db.connect()
        let billing = BillingProjection()
        let live = try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) }
        let journalRows = try connection.query("SELECT count(*) FROM proj_billing.journal")[0].requireInt64(0)
        #expect(journalRows >= 4, "two credits and a capture posted to the project and its payer")
        var streaming = BillingProjection()
        streaming.journalStreamBytes = 1
        let batch = Int(placed.position)
        try ProjectionRebuilder(conninfo: f.service.db.projectorURL, batchSize: batch, log: { _, _, _ in }).rebuild([streaming])
        #expect(try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) } == live)
        #expect(try connection.query("SELECT count(*) FROM proj_billing.journal")[0].requireInt64(0) == journalRows)
    }

    @Test("a rebuild builds the journal's entry index at its first correction of an earlier batch's entry, not entry by entry from the start")
    func entryIndexBuiltAtFirstCorrection() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let first = try f.credit(.project("solo"), .grant, 10)
        for i in 1...12 { _ = try f.credit(.project("solo"), .purchase, Int64(i)) }
        let corrected = try f.append(EntryCorrected(entryID: JournalEntryID(position: first.position, index: 0).description,
                                                    amount: Millicredits(-4), reason: "test"),
                                     stream: Pool.project("solo").ownerStream, corrects: first.position)
        for i in 1...6 { _ = try f.credit(.project("solo"), .grant, Int64(i)) }
        try f.settle()

        let connection = try f.service.db.connect()
        let billing = BillingProjection()
        let live = try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) }
        // After each batch the rebuild commits: whether the build schema has the index then.
        let watcher = try f.service.db.connect()
        let seen = Mutex<[(position: Int64, indexed: Bool)]>([])
        let rebuilder = ProjectionRebuilder(conninfo: f.service.db.projectorURL, batchSize: 4, log: { _, _, _ in }) { name, position, _ in
            guard name == billing.name else { return }
            let indexed = (try? watcher.query("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = 'journal_entry_idx'",
                                              [billing.schema + "__build"]).rowCount) == 1
            seen.withLock { $0.append((position, indexed)) }
        }
        try rebuilder.rebuild([billing])
        let batches = seen.withLock { $0 }
        #expect(!batches.isEmpty)
        for batch in batches {
            #expect(batch.indexed == (batch.position >= corrected.position),
                    "after the batch through \(batch.position) (the correction at \(corrected.position)): indexed \(batch.indexed)")
        }
        #expect(try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) } == live)
        #expect(try connection.query("SELECT 1 FROM pg_indexes WHERE schemaname = 'proj_billing' AND indexname = 'journal_entry_idx'").rowCount == 1)
    }
}
