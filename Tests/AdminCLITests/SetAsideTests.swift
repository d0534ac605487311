import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// A way out of a poison event without a code change (docs/operations.md). An event the
/// billing fold cannot apply is written past the deciders (as a superuser could); the
/// projection stops on it; an operator sets it aside with `ledger admin`; the projection
/// records that, goes on, and a replay of the same log gives the same rows.
@Suite("Setting a poison event aside", .bounded)
struct SetAsideTests {
    static func billingCheckpoint(_ f: AdminFixture) throws -> ProjectionSchema.Progress? {
        try f.pool.read { try ProjectionSchema.progress(BillingProjection().schema, on: $0) }
    }

    @Test("the projection stops on it, goes on once it is set aside, lists it, and a replay gives the same rows")
    func setAsideAndReplay() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        // Unfoldable: the amount is not an amount. Nothing but a superuser, or a bug, writes this.
        let poison = try f.store.append(AppendRequest(EventToAppend(
            stream: "payer-acme", type: CreditPosted.type,
            data: ["pool": "payer:acme", "source": "grant", "amount": "lots", "description": "broken"],
            metadata: EventMetadata(actor: Actor(.system, "tests"))))).position
        try f.append(CreditPosted(pool: .payer("acme"), source: .grant, amount: Millicredits(700), description: "after"), stream: "payer-acme")
        #expect(try Poll.until(timeout: 20) { try Self.billingCheckpoint(f)?.failedPosition == poison })
        #expect(try Self.billingCheckpoint(f)?.position == poison - 1)

        // Refused for a position the projection did not stop on, or another projection.
        let wrong = f.admin(["event", "set-aside", "--projection", "billing", "--position", String(poison + 1)])
        #expect(wrong.status == 1 && wrong.errors.contains("not_stopped"), "\(wrong.errors)")
        let other = f.admin(["event", "set-aside", "--projection", "organizations", "--position", String(poison)])
        #expect(other.status == 1)

        let setAside = try f.adminJSON(["event", "set-aside", "--projection", "billing", "--position", String(poison)],
                                       reason: "ticket 12: amount written by a broken import")
        #expect(setAside.appended.first?["type"] == "projection.event_set_aside")
        try f.settle()
        #expect(try Self.billingCheckpoint(f)?.failedPosition == nil)
        #expect(try f.rows("SELECT credit_grant::text FROM proj_billing.balances WHERE account = 'payer:acme'") == [["700"]])
        #expect(try f.rows("SELECT position::text, event_type, reason FROM proj_billing._set_aside")
                == [[String(poison), CreditPosted.type, "ticket 12: amount written by a broken import"]])

        let audit = f.audit(["set-asides", "--json"])
        #expect(audit.status == 0, "\(audit.errors)")
        let listed = try JSONValue.parse(audit.output)["set_asides"]?.arrayValue ?? []
        #expect(listed.count == 1)
        #expect(listed.first?["position"]?.int64Value == poison)
        #expect(listed.first?["skipped"] == true)
        #expect(listed.first?["operator"] == "alice")

        // A replay of the same log skips it too, and gives the same rows.
        let billing = BillingProjection()
        let connection = try f.db.connect()
        let tables = try (billing.tables + ["_set_aside"]).map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) }
        f.stopProjector()
        try ProjectionRebuilder(conninfo: f.db.projectorURL, log: { _, _, _ in }).rebuild([billing])
        let rebuilt = try (billing.tables + ["_set_aside"]).map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) }
        #expect(rebuilt == tables)
        #expect(try ProjectionSchema.progress(billing.schema, on: connection)?.failedPosition == nil)
    }

    @Test("setting aside needs a projection stopped on that very event, and happens once")
    func refusals() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.settle()
        let head = try f.head()
        let running = f.admin(["event", "set-aside", "--projection", "billing", "--position", "1"])
        #expect(running.status == 1 && running.errors.contains("has not stopped"), "\(running.errors)")
        let unknown = f.admin(["event", "set-aside", "--projection", "nonsense", "--position", "1"])
        #expect(unknown.status == 2)
        #expect(try f.head() == head)
    }
}
