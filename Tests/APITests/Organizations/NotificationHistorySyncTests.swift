import API
import AppStore
import AppStoreServerAPI
import AppStoreServerStandIn
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import Testing
import TestSupport

/// Recovery of what Apple sent: the stand-in for Apple drops notifications as an outage
/// would, and the notification history sync records them through the rules of a delivered
/// one, on the projector's database role (docs/appstore.md, "Recovery").
@Suite("The notification history sync recovers what Apple sent and the ledger missed", .bounded)
struct NotificationHistorySyncTests {
    typealias Harness = AppleHarness

    @Test("a notification the stand-in dropped is recovered by the next sync, and the plan ends as if it had arrived")
    func droppedIsRecovered() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme"), beta = try h.f.org("beta")
        let lost = UUID()
        #expect(h.standIn.deliver(notification: h.subscribed(acme, .premium, original: "1001", signed: "2026-11-10T10:00:00Z", uuid: lost),
                                  to: h.notificationURL, dropping: true) == .dropped)
        #expect(h.standIn.deliver(notification: h.subscribed(beta, .premium, original: "2001", signed: "2026-11-10T10:00:00Z"),
                                  to: h.notificationURL) == .answered(status: 200))
        #expect(try h.f.currentPlan("acme")?["current"] == "free")
        #expect(try h.f.currentPlan("beta")?["current"] == "premium")

        let sync = h.sync()
        defer { sync.client.close() }
        let report = try sync.run()
        #expect(report.recovered == [lost.uuidString.lowercased()])
        #expect(report.run.seen == 2 && report.run.recovered == 1 && report.run.succeeded)
        #expect(try h.f.currentPlan("acme")?["current"] == "premium", "recovered as if delivered")
        #expect(try h.f.currentPlan("acme") == h.f.currentPlan("beta", as: "alice"), "the same plan, shown the same way")

        // Attributed: Apple's history as the actor, the run, and where it came from.
        let events = try h.f.service.store.log.events(appendedUnder: AppStoreDecider.Notification(
            uuid: lost.uuidString.lowercased()).idempotencyKey)
        let metadata = try JSONValue.parse(try #require(events.first).metadataText)
        #expect(metadata["source"] == "notification_history")
        #expect(metadata["sync_id"]?.stringValue == report.run.id.uuidString.lowercased())
        #expect(metadata["actor"]?["id"] == "notification-history")
    }

    @Test("a sync that runs twice appends nothing the second time, over the next window or the same one again")
    func secondRunAppendsNothing() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        for (i, signed) in ["2026-11-10T09:00:00Z", "2026-11-10T11:00:00Z"].enumerated() {
            h.standIn.deliver(notification: h.subscribed(acme, .plus, original: "10\(i)", signed: signed), to: h.notificationURL, dropping: true)
        }
        let sync = h.sync()
        defer { sync.client.close() }
        #expect(try sync.run().recovered.count == 2)
        let head = try h.head()
        #expect(try !sync.isDue(), "the next run is an hour after this one")
        h.f.service.clock.advance(seconds: 3_600)
        #expect(try sync.isDue())
        let next = try sync.run()
        #expect(next.recovered.isEmpty && next.run.succeeded)
        #expect(next.run.windowStart.microseconds == t("2026-11-10T11:45:00Z").microseconds,
                "the next window starts 15 minutes before the last one ended")
        let again = try sync.run(since: t("2026-11-10T00:00:00Z"))
        #expect(again.recovered.isEmpty && again.run.seen == 2)
        #expect(try h.head() == head, "nothing appended by either")
    }

    @Test("each recovered event replays to the same plans: a rebuild of the organizations projection gives the same tables")
    func replaysToTheSamePlans() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        h.standIn.deliver(notification: h.subscribed(acme, .plus, original: "3001", signed: "2026-11-10T08:00:00Z"), to: h.notificationURL, dropping: true)
        let sync = h.sync()
        defer { sync.client.close() }
        #expect(try sync.run().recovered.count == 1)
        let plan = try h.f.currentPlan("acme")
        #expect(plan?["current"] == "plus")
        let organizations = OrganizationsProjection()
        let connection = try h.f.service.db.connect()
        let tables = try organizations.tables.map { try ProjectionSchema.checksum(schema: organizations.schema, table: $0, on: connection) }
        try ProjectionRebuilder(conninfo: h.f.service.db.projectorURL, batchSize: 7, log: { _, _, _ in }).rebuild([organizations])
        #expect(try organizations.tables.map { try ProjectionSchema.checksum(schema: organizations.schema, table: $0, on: connection) } == tables)
        #expect(try h.f.currentPlan("acme") == plan)
    }

    @Test("a token that expires in the middle of a sync is renewed before the next page; Apple's stand-in refuses none")
    func tokenRenewedMidSync() throws {
        let h = try Harness(pageSize: 1)
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        for i in 0..<3 {
            h.standIn.deliver(notification: h.subscribed(acme, .plus, original: "40\(i)", signed: "2026-11-10T0\(i + 7):00:00Z"),
                              to: h.notificationURL, dropping: true)
        }
        let sync = h.sync()
        defer { sync.client.close() }
        // Each notification recorded moves the clock 18 minutes: past the 20-minute token's
        // margin after the first, so the second page needs a new one.
        let report = try sync.run(afterRecording: { _ in h.f.service.clock.advance(seconds: 18 * 60) })
        #expect(report.recovered.count == 3 && report.run.pages == 3)
        #expect(h.standIn.tokenRefusals.isEmpty)
        let tokens = Set(h.standIn.requests.filter { $0.path.hasPrefix("/inApps/v1/notifications/history") }.map(\.status))
        #expect(tokens == [200])
    }

    @Test("one run of an app at a time: while another process holds the app's sync, a run begins nothing and says so")
    func oneRunAtATime() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let other = try h.f.service.db.connect()
        #expect(try other.query("SELECT pg_try_advisory_lock(6, hashtext('ai.screenrig.app local'))").rows.first?.bool(0) == true)
        let sync = h.sync()
        defer { sync.client.close() }
        #expect { try sync.run() } throws: { ($0 as? AppStoreSyncFailure)?.code == "sync_running" && ($0 as? AppStoreSyncFailure)?.syncID == nil }
        #expect(try AppStoreSyncRuns(connections: h.connections).latest().isEmpty, "no run begun")
        _ = try other.query("SELECT pg_advisory_unlock(6, hashtext('ai.screenrig.app local'))")
        #expect(try sync.run().run.succeeded)
    }

    @Test("a 429 storm in the middle of a sync waits what Retry-After says and goes on: the run succeeds, nothing is lost")
    func rateLimitedMidSync() throws {
        let h = try Harness(pageSize: 1)
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        for i in 0..<3 {
            h.standIn.deliver(notification: h.subscribed(acme, .plus, original: "60\(i)", signed: "2026-11-10T0\(i + 7):00:00Z"),
                              to: h.notificationURL, dropping: true)
        }
        let sync = h.sync()
        defer { sync.client.close() }
        var stormed = false
        let report = try sync.run(afterRecording: { _ in
            if !stormed {
                stormed = true
                h.standIn.fail(next: 2, status: 429, retryAfter: "0")
            }
        })
        #expect(report.run.succeeded && report.recovered.count == 3 && report.run.pages == 3)
        let statuses = h.standIn.requests.filter { $0.path.hasPrefix("/inApps/v1/notifications/history") }.map(\.status)
        #expect(statuses == [200, 429, 429, 200, 200], "\(statuses)")
    }

    @Test("a sync that stops on Apple's error is resumed from its last page, and says where it stopped meanwhile")
    func resumesAfterAnError() throws {
        let h = try Harness(pageSize: 2)
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        for i in 0..<5 {
            h.standIn.deliver(notification: h.subscribed(acme, .plus, original: "50\(i)", signed: "2026-11-10T0\(i + 5):00:00Z"),
                              to: h.notificationURL, dropping: true)
        }
        let sync = h.sync(settings: .init(every: 3_600, overlap: 900, firstWindow: 86_400, retryAfterError: 300))
        defer { sync.client.close() }
        // The second page fails past the client's retries: three 503s.
        var pagesAsked = 0
        #expect(throws: AppStoreSyncFailure.self) {
            try sync.run(afterRecording: { count in
                if count == 2 && pagesAsked == 0 {
                    pagesAsked += 1
                    h.standIn.fail(next: 3, status: 503)
                }
            })
        }
        let stopped = try #require(try AppStoreSyncRuns(connections: h.connections).open(bundleID: Harness.bundleID, environment: "local"))
        #expect(stopped.state == "interrupted", "\(stopped)")
        #expect(stopped.pages == 1 && stopped.recovered == 2 && stopped.failureCode == "server_error", "\(stopped)")
        #expect(try !sync.isDue(), "resumed after a pause")
        h.f.service.clock.advance(seconds: 301)
        #expect(try sync.isDue())
        let resumed = try sync.run()
        #expect(resumed.resumed && resumed.run.id == stopped.id)
        #expect(resumed.recovered.count == 3 && resumed.run.recovered == 5 && resumed.run.seen == 5 && resumed.run.succeeded)
        let status = try AppStoreSyncStatus.read(connections: h.connections, every: 3_600, now: h.f.service.clock.read())
        #expect(status.apps.map(\.recovered) == [5] && status.apps.map(\.overdue) == [false])
    }

    @Test("the operations /readyz shows each app's sync and warns, without becoming unready, when it is overdue; /metrics has the gauges")
    func readinessAndMetrics() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let acme = try h.f.org("acme")
        h.standIn.deliver(notification: h.subscribed(acme, .plus, original: "6001", signed: "2026-11-10T08:00:00Z"), to: h.notificationURL, dropping: true)
        let sync = h.sync()
        defer { sync.client.close() }
        try sync.run()
        #expect(Poll.until { (try? h.f.service.operationsJSON("/readyz").1["appstore_sync"]?["apps"]?[0]?["recovered"]) == 1 })
        var (status, body) = try h.f.service.operationsJSON("/readyz")
        #expect(status == 200 && body["warnings"] == nil)
        #expect(body["appstore_sync"]?["apps"]?[0]?["last"]?["state"] == "succeeded")
        let metrics = String(decoding: try h.f.service.operationsGet("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("ledger_appstore_notifications_recovered{bundle_id=\"ai.screenrig.app\",environment=\"local\"} 1"))
        #expect(metrics.contains("ledger_appstore_sync_overdue{bundle_id=\"ai.screenrig.app\",environment=\"local\"} 0"))

        h.f.service.clock.advance(seconds: 3 * 3_600)
        #expect(Poll.until { (try? h.f.service.operationsJSON("/readyz").1["warnings"]) != nil })
        (status, body) = try h.f.service.operationsJSON("/readyz")
        #expect(status == 200, "overdue is a warning, not unreadiness")
        #expect(body["warnings"]?[0]?.stringValue?.contains("ai.screenrig.app (local) is overdue: its last success was 3 h ago") == true)
        let answer = try h.f.get("/readyz", key: nil)
        #expect(answer.status == 200 && answer.body["warnings"] == nil && answer.body["appstore_sync"] == nil, "the public port names no app")
    }
}

private extension AppStoreDecider.Notification {
    /// Only the key matters here.
    init(uuid: String) {
        self.init(notificationUUID: uuid, type: "", subtype: nil, signedDate: .minimum, environment: "", transaction: nil)
    }
}

extension AppleHarness {
    /// A sync of the stand-in, recording as the projector's role does.
    func sync(settings: AppStoreHistorySync.Settings = .init()) -> AppStoreHistorySync {
        AppStoreHistorySync(client: client(), settings: settings, connections: connections, store: store,
                            products: AppStoreProducts(products), now: f.service.clock.read)
    }

    /// A SUBSCRIBED notification of a new subscription to `plan` for the organization
    /// whose account token is `token`, signed at `signed`.
    func subscribed(_ token: UUID, _ plan: Plan, original: String, signed: String, uuid: UUID = UUID()) -> String {
        let transaction = signer.transaction(productID: products[plan]!, appAccountToken: token, environment: "Sandbox",
                                             signedDate: t(signed), transactionID: original, originalTransactionID: original,
                                             purchaseDate: t(signed))
        return signer.notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: transaction, environment: "Sandbox",
                                   signedDate: t(signed), notificationUUID: uuid)
    }
}
