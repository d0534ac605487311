import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import StripeAPI
import StripeStandIn
import Testing
import TestSupport

/// What Stripe sent and a webhook did not bring, recovered (docs/web-checkout.md,
/// "Nothing the processor sent is lost"): the stand-in delivers to the real service and
/// drops on demand; `StripeEventsSync` lists its events as the projector's login.
@Suite("Stripe's events a webhook did not bring are recovered, once", .needsSharedData, .bounded)
struct StripeReconcileTests {
    static let app = "webapp"

    /// The service on the machine's clock (the stand-in signs with it), the stand-in
    /// delivering to the app's endpoint, and a sync of the app over the projector's login.
    func fixture() throws -> (BillingFixture, String, StripeStandIn, StripeEventsSync, EventStore) {
        let f = try BillingFixture(stripeSecrets: [Self.app: [BillingFixture.stripeSecret]])
        f.service.clock.set(Timestamp(microseconds: Int64(Date().timeIntervalSince1970) * 1_000_000)!.iso8601)
        let key = try f.app(Self.app)
        try SampleCatalog.install(f, app: Self.app)
        let standIn = try StripeStandIn()
        _ = standIn.addEndpoint(url: "http://127.0.0.1:\(f.service.server.port)/v1/stripe/webhooks/\(Self.app)", secret: BillingFixture.stripeSecret)
        let pool = PostgresPool(conninfo: f.service.db.projectorURL, maximumConnections: 2)
        let store = EventStore(conninfo: f.service.db.projectorURL, connections: pool)
        let client = StripeAPIClient(configuration: try StripeAPIConfiguration(appID: Self.app, secretKey: standIn.account.secretKey,
                                                                                baseURL: standIn.baseURL))
        let sync = StripeEventsSync(appID: Self.app, client: client, settings: .init(), connections: pool, store: store,
                                    now: f.service.clock.read)
        return (f, key, standIn, sync, store)
    }

    func delivered(_ standIn: StripeStandIn) -> Bool {
        Poll.until(timeout: 20) { standIn.isIdle }
    }

    @Test("a dropped event is recovered by reconcile and the entitlement ends as if it had arrived; a dry run and a second run append nothing")
    func droppedRecovered() throws {
        let (f, key, standIn, sync, store) = try fixture()
        defer { sync.client.close(); store.close(); standIn.stop(); f.shutdown() }
        let now = Int64(Date().timeIntervalSince1970)
        var scenario = StripeScenario(start: now - 20 * 86_400, userID: "ana", productID: SampleCatalog.monthly.id, amount: 799)
        _ = standIn.record(scenario.startPaidSubscription())
        #expect(delivered(standIn))
        #expect(try f.entitlements(key: key, user: "ana").body["entitlements"]?[0]?["status"] == "active")

        scenario.advance(days: 5)
        _ = standIn.record(scenario.deleteSubscription(), mode: .drop)
        #expect(delivered(standIn) && standIn.droppedEventIDs.count == 1)
        #expect(try f.entitlements(key: key, user: "ana").body["entitlements"]?.arrayValue?.count == 1, "the drop is not known yet")

        let since = Timestamp(microseconds: (now - 25 * 86_400) * 1_000_000)!
        let head = try f.service.store.log.headPosition()
        let dry = try sync.run(since: since, dryRun: true)
        #expect(dry.recovered == standIn.droppedEventIDs && dry.run.dryRun)
        #expect(try f.service.store.log.headPosition() == head)

        let report = try sync.run(since: since)
        #expect(report.recovered == standIn.droppedEventIDs)
        #expect(report.run.seen == standIn.events.count && report.refused.isEmpty)
        let recovered = try #require(try f.service.store.log.read(after: head, limit: 10).first)
        #expect(recovered.type == StripeEventRecorded.type)
        #expect(try recovered.metadata()?.actor == Actor(.processor, "stripe-events-api"))
        #expect(try recovered.metadata()?.extra["run_id"]?.stringValue == report.run.id.uuidString.lowercased())
        #expect(try f.entitlements(key: key, user: "ana").body["entitlements"] == .array([]))

        let again = try sync.run(since: since)
        #expect(again.recovered.isEmpty && again.run.seen == report.run.seen)
        #expect(try f.service.store.log.headPosition() == head + 1)
        let status = try StripeSyncStatus.read(connections: f.service.context.connections, every: 3_600, now: f.service.clock.now)
        #expect(status.apps.map(\.appID) == [Self.app] && status.apps.first?.recovered == 1 && status.apps.first?.overdue == false)
        // The operations listener's /metrics and /readyz show it once the monitor looked.
        #expect(Poll.until(timeout: 20) {
            let metrics = String(decoding: (try? f.service.operationsGet("/metrics").body) ?? [], as: UTF8.self)
            return metrics.contains("ledger_stripe_events_recovered{app_id=\"\(Self.app)\"} 1")
                && metrics.contains("ledger_stripe_sync_last_run_failed{app_id=\"\(Self.app)\"} 0")
        })
        #expect(try f.service.operationsJSON("/readyz").1["stripe_sync"]?["apps"]?[0]?["app_id"] == .string(Self.app))
    }

    @Test("W4: events delivered reordered and twice give the entitlement the same events in order give")
    func reorderedAndDuplicated() throws {
        let (f, key, standIn, sync, store) = try fixture()
        defer { sync.client.close(); store.close(); standIn.stop(); f.shutdown() }
        let now = Int64(Date().timeIntervalSince1970)
        var scenario = StripeScenario(start: now - 10 * 86_400, userID: "bo", productID: SampleCatalog.monthly.id, amount: 799)
        _ = standIn.record(scenario.freeTrialThatConverts(trialDays: 7), mode: .reorder)
        #expect(delivered(standIn))
        var again = StripeScenario(start: now - 10 * 86_400, userID: "cy", productID: SampleCatalog.monthly.id, amount: 799)
        _ = standIn.record(again.freeTrialThatConverts(trialDays: 7), mode: .duplicate)
        #expect(delivered(standIn))
        for user in ["bo", "cy"] {
            let held = try f.entitlements(key: key, user: user).body["entitlements"]?[0]
            #expect(held?["status"] == "active" && held?["will_renew"] == true && held?["trial"] == .null, "\(user): \(String(describing: held))")
        }
        // Nothing was lost: a reconcile finds every event recorded.
        let report = try sync.run(since: Timestamp(microseconds: (now - 11 * 86_400) * 1_000_000)!)
        #expect(report.recovered.isEmpty && report.run.seen == standIn.events.count)
    }

    @Test("a replay of the log gives the same entitlements: a rebuild of the web checkout projection gives the same table and answers")
    func replaysToTheSameEntitlements() throws {
        let (f, key, standIn, sync, store) = try fixture()
        defer { sync.client.close(); store.close(); standIn.stop(); f.shutdown() }
        let now = Int64(Date().timeIntervalSince1970)
        var users: [String] = []
        let stories: [(inout StripeScenario) -> [StripeEventDraft]] = [
            { $0.freeTrialThatConverts(trialDays: 7) }, { $0.authHoldTrial(trialDays: 14, holdDays: 7, outcome: .holdExpired) },
            { $0.renewalFails(then: .recovers) }, { $0.refundedPayment(afterDays: 1) },
        ]
        for (i, make) in stories.enumerated() {
            var scenario = StripeScenario(start: now - 9 * 86_400, userID: "user-\(i)", productID: SampleCatalog.monthly.id, amount: 799)
            _ = standIn.record(make(&scenario), mode: i % 2 == 0 ? .reorder : .duplicate)
            users.append("user-\(i)")
        }
        #expect(delivered(standIn))
        let before = try users.map { try f.entitlements(key: key, user: $0).body["entitlements"] }
        #expect(before[0]?[0]?["status"] == "active" && before[1]?[0]?["status"] == "trialing", "\(before)")
        let web = WebCheckoutProjection()
        let connection = try f.service.db.connect()
        let tables = try web.tables.map { try ProjectionSchema.checksum(schema: web.schema, table: $0, on: connection) }
        try ProjectionRebuilder(conninfo: f.service.db.projectorURL, batchSize: 3, log: { _, _, _ in }).rebuild([web])
        #expect(try web.tables.map { try ProjectionSchema.checksum(schema: web.schema, table: $0, on: connection) } == tables)
        #expect(try users.map { try f.entitlements(key: key, user: $0).body["entitlements"] } == before)
    }
}
