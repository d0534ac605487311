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
import Workers

/// Refund requests end to end (docs/appstore.md, "Refund requests"): Apple's
/// `CONSUMPTION_REQUEST` delivered to the API, the worker of the active projector answering
/// it on the projector's database role, and the stand-in for Apple recording what it got.
@Suite("Apple's refund requests are answered once, with consent, within 12 hours, and the answer is in the log", .bounded)
struct ConsumptionRequestTests {
    final class Harness: Sendable {
        let base: AppleHarness
        let token: UUID
        static let bundleID = AppleHarness.bundleID

        init() throws {
            base = try AppleHarness()
            token = try base.f.org("acme")
        }

        var f: BillingFixture { base.f }
        var standIn: AppStoreServerStandIn { base.standIn }
        var connections: PostgresPool { base.connections }
        var store: EventStore { base.store }
        func client() -> AppStoreServerAPIClient { base.client() }
        func head() throws -> Int64 { try base.head() }
        func shutdown() { base.shutdown() }

        /// The worker of the active projector, over its own client, recording as the projector's role.
        func worker(consent: Bool, refundPreference: Int = 0) -> (job: AppStoreConsumptionJob, client: AppStoreServerAPIClient) {
            let client = client()
            let responder = AppStoreConsumptionResponder(apps: [.init(client: client, policy: ConsumptionPolicy(consent: consent,
                                                                                                                refundPreference: refundPreference))],
                                                         connections: connections, store: store, now: f.service.clock.read)
            return (AppStoreConsumptionJob(responder: responder, isActive: { true }, log: { _, _, _ in }), client)
        }

        /// A Premium subscription bought on `purchased`, as Apple signs its transaction; the
        /// stand-in knows it (Apple answers 404 for a transaction it does not hold).
        func transaction(original: String = "7000", id: String = "7001", purchased: String = "2026-11-01T10:00:00Z") -> String {
            let jws = signer.transaction(productID: products[.premium]!, appAccountToken: token, environment: "Sandbox",
                                         signedDate: t(purchased), transactionID: id, originalTransactionID: original, purchaseDate: t(purchased))
            standIn.add(transaction: jws)
            return jws
        }

        /// Apple's CONSUMPTION_REQUEST for `transaction`, signed at `signed`.
        func consumptionRequest(_ transaction: String, signed: String = "2026-11-10T11:00:00Z", uuid: UUID = UUID()) -> String {
            signer.notification(type: "CONSUMPTION_REQUEST", transaction: transaction, environment: "Sandbox", signedDate: t(signed),
                                notificationUUID: uuid)
        }

        /// The subscription bought, then the refund request delivered to the API; its UUID.
        @discardableResult
        func delivered(signed: String = "2026-11-10T11:00:00Z") throws -> String {
            let jws = transaction()
            let bought = signer.notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: jws, environment: "Sandbox",
                                             signedDate: t("2026-11-01T10:00:00Z"))
            #expect(try f.notify(bought).status == 200)
            let uuid = UUID()
            let answer = try f.notify(consumptionRequest(jws, signed: signed, uuid: uuid))
            #expect(answer.status == 200 && answer.body["outcome"] == "consumption_requested", "\(answer.body)")
            try f.settle()
            return uuid.uuidString.lowercased()
        }

        func answers() throws -> [RecordedEvent] { try f.service.store.log.events(ofType: AppStoreConsumptionAnswered.type) }
        func puts() -> Int { standIn.requests.filter { $0.path.hasPrefix("/inApps/v1/transactions/consumption/") }.count }
    }

    @Test("a CONSUMPTION_REQUEST delivered is answered by the worker's one look, once; a second look and a second worker append nothing")
    func sentOnce() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let uuid = try h.delivered()
        let requested = try h.f.service.store.log.events(ofType: AppStoreConsumptionRequested.type)
        #expect(requested.count == 1 && requested.first?.stream == "appstore-sub-7000")
        let (job, client) = h.worker(consent: true, refundPreference: 3)
        defer { client.close() }
        let report = try #require(job.tick())
        #expect(report.answered == [uuid: .sent] && report.retrying.isEmpty, "\(report)")

        let received = try #require(h.standIn.consumptionReceived["7001"])
        #expect(received["customerConsented"] == true && received["deliveryStatus"] == 0 && received["platform"] == 1)
        #expect(received["appAccountToken"]?.stringValue == h.token.uuidString.lowercased())
        #expect(received["accountTenure"] == 2, "the organization was created a day before, the purchase nine days before the request")
        #expect(received["userStatus"] == 1 && received["refundPreference"] == 3 && received["consumptionStatus"] == 0 && received["playTime"] == 0)
        #expect(received["lifetimeDollarsRefunded"] == 0 && received["lifetimeDollarsPurchased"] == 0, "prices are not known: undeclared")

        let answers = try h.answers()
        #expect(answers.count == 1)
        let answer = try JSONValue.parse(Array(try #require(answers.first).dataText.utf8))
        #expect(answer["outcome"] == "sent" && answer["notification_uuid"]?.stringValue == uuid && answer["transaction_id"] == "7001")
        #expect(answer["information"]?["account_tenure"] == 2 && answer["information"]?["refund_preference"] == 3)
        let metadata = try JSONValue.parse(try #require(answers.first).metadataText)
        #expect(metadata["actor"]?["id"] == "appstore-consumption" && metadata["correlation_id"]?.stringValue == uuid)

        // At once, before the projection has folded the answer, and after: nothing more.
        let head = try h.head()
        #expect(job.tick()?.answered.isEmpty == true)
        try h.f.settle()
        #expect(job.tick()?.answered.isEmpty == true)
        let (second, otherClient) = h.worker(consent: true)
        defer { otherClient.close() }
        #expect(second.tick()?.answered.isEmpty == true)
        #expect(try h.head() == head, "nothing appended by a second look or a second worker")
        #expect(h.puts() == 1, "sent to Apple once")

        // Shown on the subscription, and the same after a rebuild of the organizations projection.
        let shown = try #require(try QueryRunner(connections: h.f.service.context.connections, clock: h.f.service.clock.read)
            .answer(AppStoreConsumptionRequestsQuery(org: "acme"), as: .operator("test")))
        #expect(shown.count == 1 && shown.first?.outcome == .sent && shown.first?.information?.accountTenure == 2)
        let organizations = OrganizationsProjection()
        let connection = try h.f.service.db.connect()
        let tables = try organizations.tables.map { try ProjectionSchema.checksum(schema: organizations.schema, table: $0, on: connection) }
        try ProjectionRebuilder(conninfo: h.f.service.db.projectorURL, batchSize: 3, log: { _, _, _ in }).rebuild([organizations])
        #expect(try organizations.tables.map { try ProjectionSchema.checksum(schema: organizations.schema, table: $0, on: connection) } == tables)
    }

    @Test("consent off (the default): declined and recorded, nothing sent to Apple")
    func consentOffDeclines() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let uuid = try h.delivered()
        let (job, client) = h.worker(consent: false)
        defer { client.close() }
        #expect(job.tick()?.answered == [uuid: .declined])
        #expect(h.standIn.consumptionReceived.isEmpty && h.puts() == 0)
        let answer = try JSONValue.parse(Array(try #require(try h.answers().first).dataText.utf8))
        #expect(answer["outcome"] == "declined" && answer["reason"] == "no_consent" && answer["information"] == nil, "nothing sent")
        #expect(job.tick()?.answered.isEmpty == true)
        #expect(try h.answers().count == 1)
    }

    @Test("Apple's 5xx past the client's retries is left for the next look, which sends it once")
    func serverErrorThenSent() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let uuid = try h.delivered()
        let (job, client) = h.worker(consent: true)
        defer { client.close() }
        h.standIn.fail(next: 3, status: 503)
        let failed = try #require(job.tick())
        #expect(failed.answered.isEmpty && failed.retrying == [uuid: "server_error"], "\(failed)")
        #expect(try h.answers().isEmpty, "a transient error is logged, never recorded")
        // One 503 more, then Apple takes it within the client's own retries.
        h.standIn.fail(next: 1, status: 503)
        #expect(job.tick()?.answered == [uuid: .sent])
        #expect(h.standIn.consumptionReceived.count == 1 && h.puts() == 5)
        #expect(try h.answers().count == 1)
    }

    @Test("Apple's final 4xx is recorded as failed with its code and what was sent; never sent again")
    func finalRefusal() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let uuid = try h.delivered()
        let (job, client) = h.worker(consent: true)
        defer { client.close() }
        h.standIn.fail(next: 1, status: 400, body: ["errorCode": 4_000_006, "errorMessage": "Invalid transaction id."])
        #expect(job.tick()?.answered == [uuid: .failed])
        let answer = try JSONValue.parse(Array(try #require(try h.answers().first).dataText.utf8))
        #expect(answer["outcome"] == "failed" && answer["reason"] == "invalid_transaction_id" && answer["status"] == 400)
        #expect(answer["apple_error_code"] == 4_000_006 && answer["information"]?["customer_consented"] == true)
        #expect(job.tick()?.answered.isEmpty == true && h.puts() == 1)
    }

    @Test("past 12 hours after Apple asked, the request is recorded expired and nothing is sent")
    func expired() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let uuid = try h.delivered(signed: "2026-11-10T11:00:00Z")
        h.f.service.clock.set("2026-11-10T23:00:00Z")
        let (job, client) = h.worker(consent: true)
        defer { client.close() }
        #expect(job.tick()?.answered == [uuid: .expired])
        #expect(h.puts() == 0)
        let answer = try JSONValue.parse(Array(try #require(try h.answers().first).dataText.utf8))
        #expect(answer["outcome"] == "expired" && answer["reason"] == "past_respond_by")
    }

    @Test("a refund request Apple's history holds and the ledger missed is recovered by the sync and answered like a delivered one")
    func recoveredThenAnswered() throws {
        let h = try Harness()
        defer { h.shutdown() }
        let uuid = UUID()
        #expect(h.standIn.deliver(notification: h.consumptionRequest(h.transaction(), uuid: uuid), to:
            "http://127.0.0.1:\(h.f.service.server.port)/v1/appstore/notifications/sandbox", dropping: true) == .dropped)
        let client = h.client()
        defer { client.close() }
        let sync = AppStoreHistorySync(client: client, settings: .init(), connections: h.connections, store: h.store,
                                       products: AppStoreProducts(products), now: h.f.service.clock.read)
        #expect(try sync.run().recovered == [uuid.uuidString.lowercased()])
        try h.f.settle()
        let responder = AppStoreConsumptionResponder(apps: [.init(client: client, policy: ConsumptionPolicy(consent: true))],
                                                     connections: h.connections, store: h.store, now: h.f.service.clock.read)
        #expect(try responder.look().answered == [uuid.uuidString.lowercased(): .sent])
        #expect(h.standIn.consumptionReceived["7001"]?["accountTenure"] == 1, "no purchase recorded: the organization, created a day before")
    }
}
