import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The billing fold with a bug: it drops the credits of one project.
struct CreditDroppingBilling: Projection {
    let real = BillingProjection()
    let dropped: String
    var name: String { real.name }
    var version: Int { real.version }
    var tablesSQL: [String] { real.tablesSQL }
    var tables: [String] { real.tables }

    func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        let kept = try events.filter { event in
            guard event.type == CreditPosted.type else { return true }
            return try event.decode(CreditPosted.self).pool != .project(dropped)
        }
        try real.apply(kept[...], in: context)
    }
}

@Suite("ledger replay shows what a rebuild changes before it swaps", .bounded)
struct ReplayDifferencesTests {
    @Test("a fixed fold: exactly the accounts it moves, by exactly the amounts, then swapped in")
    func fixedFoldShowsItsMoney() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        let metadata = EventMetadata(actor: Actor(.system, "tests"))
        func append<E: DomainEvent>(_ stream: String, _ event: E) throws {
            _ = try store.append(AppendRequest(EventToAppend(stream: stream, type: E.type, data: try JSONValueEncoder().encode(event),
                                                             metadata: metadata)))
        }
        var expectedMissing: Int64 = 0
        for p in 0..<4 {
            try append("project-p\(p)", ProjectCreated(projectID: "p\(p)", name: "p\(p)", funding: .selfPaying))
        }
        for i in 0..<60 {
            let amount = Int64(100 + i * 7)
            try append("project-p\(i % 4)", CreditPosted(pool: .project("p\(i % 4)"), source: .grant, amount: Millicredits(amount),
                                                          description: "credit \(i)"))
            if i % 4 == 2 { expectedMissing += amount }
        }
        #expect(expectedMissing == 4_650, "the figure docs/operations.md quotes")
        let buggy = CreditDroppingBilling(dropped: "p2")
        let projector = ProjectorThread(url: db.projectorURL, projections: [buggy], batchSize: 16, pollInterval: 0.05)
        #expect(try waitForProjections([buggy], url: db.writerURL))
        projector.stop()

        let rebuilt = try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 25, log: { _, _, _ in }).build([BillingProjection()])
        let differences = try rebuilt.differences()
        let billing = try #require(differences.first)
        #expect(billing.position == 64 && billing.livePosition == 64)
        #expect(billing.accounts == [AccountDifference(account: "project:p2", figure: "posted", live: "0", rebuilt: String(expectedMissing))],
                "\(billing.accounts)")
        let journal = try #require(billing.tables.first { $0.table == "journal" })
        #expect(journal.added == 15 && journal.removed == 0 && journal.changed == 0)
        let balances = try #require(billing.tables.first { $0.table == "balances" })
        #expect(balances.added == 1 && balances.changed == 0, "p2 had no balance row at all")
        #expect(billing.tables.filter { !$0.isUnchanged }.map(\.table).sorted() == ["balances", "journal"])
        try rebuilt.swap()

        // Swapped: the live projection is now the rebuilt one, and a second rebuild of it changes nothing.
        let again = try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 25, log: { _, _, _ in }).build([BillingProjection()])
        #expect(try again.differences().allSatisfy(\.isUnchanged))
        again.discard()
        let connection = try db.connect()
        #expect(try connection.query("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'proj_billing__%'")[0].int64(0) == 0,
                "a discarded rebuild leaves no schema behind")
    }

    @Test("a dry run swaps nothing: the live tables stay as they were")
    func dryRunSwapsNothing() throws {
        try Self.withFoldedIndex { db, catalogue in
            let connection = try db.connect()
            try connection.query("DELETE FROM proj_catalogue.streams WHERE stream = 's-3'")  // a damaged live table
            let oid = try connection.query("SELECT oid FROM pg_namespace WHERE nspname = 'proj_catalogue'")[0].int64(0)
            let rebuilt = try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 16, log: { _, _, _ in }).build([catalogue])
            let streams = try #require(try rebuilt.differences().first?.tables.first { $0.table == "streams" })
            #expect(streams.added == 1 && streams.removed == 0 && streams.changed == 0)
            rebuilt.discard()
            #expect(try connection.query("SELECT oid FROM pg_namespace WHERE nspname = 'proj_catalogue'")[0].int64(0) == oid)
            #expect(try connection.query("SELECT count(*) FROM proj_catalogue.streams")[0].int64(0) == 4)
        }
    }

    @Test("a dry run beside a live projection of an older version, whose tables are others, counts every rebuilt row as new")
    func olderLiveVersionComparesAsNew() throws {
        try Self.withFoldedIndex { db, catalogue in
            // As an upgrade leaves it before the projector has rebuilt it: another version, a table renamed.
            let connection = try db.connect()
            try connection.query("UPDATE proj_catalogue._checkpoint SET version = version - 1")
            try connection.query("ALTER TABLE proj_catalogue.streams RENAME TO streams_v0")
            let rebuilt = try ProjectionRebuilder(conninfo: db.projectorURL, batchSize: 16, log: { _, _, _ in }).build([catalogue])
            let differences = try #require(try rebuilt.differences().first)
            rebuilt.discard()
            let streams = try #require(differences.tables.first { $0.table == "streams" })
            #expect(streams.added == 5 && streams.removed == 0 && streams.changed == 0)
            #expect(differences.livePosition == 40 && !differences.isUnchanged)
        }
    }

    /// A log of 40 events on 5 streams, folded by the live index of streams, the projector stopped.
    static func withFoldedIndex(_ body: (TestDatabase, LogIndexProjection) throws -> Void) throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<40 { _ = try store.append(AppendRequest(event("s-\(i % 5)"))) }
        let catalogue = LogIndexProjection()
        let projector = ProjectorThread(url: db.projectorURL, projections: [catalogue], batchSize: 16, pollInterval: 0.05)
        #expect(try waitForProjections([catalogue], url: db.writerURL))
        projector.stop()
        try body(db, catalogue)
    }
}
