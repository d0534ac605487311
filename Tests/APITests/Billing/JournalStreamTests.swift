import API
import EventStore
import Foundation
import LedgerDomain
import ProjectionEngine
import Projections
import TestSupport
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
}
