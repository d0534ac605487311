import Foundation
import LedgerDomain
import LedgerJSON
import Stripe
import StripeAPI
import StripeStandIn
import Testing
import TestSupport

@Suite("Webhook deliveries: signed as Stripe signs, one v1 per secret during a roll, and each fault on demand", .bounded)
struct DeliveryTests {
    /// Waits (bounded) until `receiver` has received `count` webhooks, and returns them.
    func received(_ receiver: LoopbackServer, count: Int) throws -> [LoopbackServer.Received] {
        #expect(Poll.until(timeout: 20) { receiver.received.count >= count }, "waited for \(count) webhooks")
        return receiver.received
    }

    func eventID(_ received: LoopbackServer.Received) -> String? {
        (try? JSONValue.parse(received.body))?["id"]?.stringValue
    }

    func draft(_ type: String = "invoice.paid", created: Int64 = 1_767_225_600) -> StripeEventDraft {
        StripeEventDraft(type: type, object: ["id": .string(StripeID.make("in_")), "object": "invoice"], created: created)
    }

    @Test("a delivery is a signed POST that StripeWebhookVerifier accepts, and its status is kept")
    func signedDelivery() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        let endpoint = fixture.standIn.addEndpoint(url: receiver.webhookURL)
        #expect(endpoint.secrets.count == 1 && endpoint.secrets[0].hasPrefix("whsec_"))
        let event = fixture.standIn.record(draft("checkout.session.completed"))
        let webhook = try #require(try received(receiver, count: 1).first)
        #expect(webhook.method == "POST" && webhook.path == "/stripe/webhooks")
        #expect(webhook.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(webhook.body == event.body)
        let verified = try StripeWebhookVerifier(secrets: endpoint.secrets)
            .verify(header: webhook.signature, body: webhook.body, now: Date().timeIntervalSince1970)
        #expect(verified.id == event.id && verified.type == "checkout.session.completed" && !verified.livemode)
        #expect(verified.apiVersion == "2024-06-20" && verified.created.microseconds == 1_767_225_600 * 1_000_000)
        let signature = try #require(webhook.signature)
        #expect(signature.hasPrefix("t=") && signature.components(separatedBy: ",v1=").count == 2)
        #expect(throws: StripeWebhookError.self) {
            try StripeWebhookVerifier(secrets: ["whsec_another"]).verify(header: signature, body: webhook.body, now: Date().timeIntervalSince1970)
        }
        #expect(Poll.until(timeout: 20) { fixture.standIn.deliveries.count == 1 })
        let delivery = fixture.standIn.deliveries[0]
        #expect(delivery.eventID == event.id && delivery.endpointID == endpoint.id && delivery.status == 200 && delivery.signature == signature)
    }

    @Test("during a roll each delivery carries a v1 per secret, and either secret verifies; once the old expires, only the new")
    func rolledSecret() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        let endpoint = fixture.standIn.addEndpoint(url: receiver.webhookURL)
        let old = endpoint.secrets[0]
        let new = fixture.standIn.rollSecret(endpoint: endpoint.id)
        fixture.standIn.record(draft())
        let during = try #require(try received(receiver, count: 1).first)
        let signature = try #require(during.signature)
        #expect(signature.split(separator: ",").filter { $0.hasPrefix("v1=") }.count == 2)
        let now = Date().timeIntervalSince1970
        for secret in [old, new] {
            #expect(throws: Never.self) { try StripeWebhookVerifier(secrets: [secret]).verify(header: signature, body: during.body, now: now) }
        }
        fixture.standIn.expireOldSecrets(endpoint: endpoint.id)
        fixture.standIn.record(draft())
        let after = try received(receiver, count: 2)[1]
        #expect(after.signature?.split(separator: ",").filter { $0.hasPrefix("v1=") }.count == 1)
        let refused = try #require(throws: StripeWebhookError.self) {
            try StripeWebhookVerifier(secrets: [old]).verify(header: after.signature, body: after.body, now: now)
        }
        #expect(refused.code == .signatureMismatch)
        #expect(throws: Never.self) { try StripeWebhookVerifier(secrets: [new]).verify(header: after.signature, body: after.body, now: now) }
    }

    @Test("drop: recorded, never delivered; only List all events has it")
    func drop() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        fixture.standIn.addEndpoint(url: receiver.webhookURL)
        let dropped = fixture.standIn.record(draft(created: 1_000), mode: .drop)
        let delivered = fixture.standIn.record(draft(created: 1_001))
        // Webhooks leave one at a time, in order: once the later one is in, the dropped one would have been.
        let all = try received(receiver, count: 1)
        #expect(Poll.until(timeout: 20) { fixture.standIn.isIdle })
        #expect(all.count == 1 && eventID(all[0]) == delivered.id)
        #expect(fixture.standIn.droppedEventIDs == [dropped.id])
        #expect(try fixture.client().events(since: 0).events.map(\.id) == [delivered.id, dropped.id])
    }

    @Test("a standing mode applies to every event recorded without one")
    func standingMode() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        fixture.standIn.addEndpoint(url: receiver.webhookURL)
        fixture.standIn.deliveryMode = .drop
        let first = fixture.standIn.record(draft())
        let second = fixture.standIn.record(draft())
        fixture.standIn.deliveryMode = .deliver
        let third = fixture.standIn.record(draft())
        let all = try received(receiver, count: 1)
        #expect(Poll.until(timeout: 20) { fixture.standIn.isIdle })
        #expect(all.count == 1 && eventID(all[0]) == third.id)
        #expect(fixture.standIn.droppedEventIDs == [first.id, second.id])
    }

    @Test("duplicate: the same event delivered twice, each signature valid")
    func duplicate() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        let endpoint = fixture.standIn.addEndpoint(url: receiver.webhookURL)
        let event = fixture.standIn.record(draft(), mode: .duplicate)
        let all = try received(receiver, count: 2)
        #expect(all.map(eventID) == [event.id, event.id])
        let verifier = StripeWebhookVerifier(secrets: endpoint.secrets)
        for webhook in all {
            #expect(throws: Never.self) { try verifier.verify(header: webhook.signature, body: webhook.body, now: Date().timeIntervalSince1970) }
        }
        #expect(Poll.until(timeout: 20) { fixture.standIn.deliveries.count == 2 })
        #expect(fixture.standIn.deliveries.map(\.eventID) == [event.id, event.id])
    }

    @Test("delay: held until flush, while later events go through; then delivered")
    func delay() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        fixture.standIn.addEndpoint(url: receiver.webhookURL)
        let late = fixture.standIn.record(draft(), mode: .delay)
        let onTime = fixture.standIn.record(draft())
        let first = try received(receiver, count: 1)
        #expect(Poll.until(timeout: 20) { fixture.standIn.isIdle })
        #expect(receiver.received.count == 1 && eventID(first[0]) == onTime.id && fixture.standIn.heldCount == 1)
        fixture.standIn.flush()
        let all = try received(receiver, count: 2)
        #expect(all.map(eventID) == [onTime.id, late.id] && fixture.standIn.heldCount == 0)
    }

    @Test("reorder: events recorded together are delivered last first")
    func reorder() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        fixture.standIn.addEndpoint(url: receiver.webhookURL)
        let events = fixture.standIn.record([draft("customer.subscription.created"), draft("invoice.paid"), draft("customer.subscription.updated")],
                                            mode: .reorder)
        let all = try received(receiver, count: 3)
        #expect(all.map(eventID) == events.reversed().map(\.id))
        // The list still has Stripe's order: newest first, by creation.
        #expect(try fixture.client().events(since: 0).events.map(\.id) == events.reversed().map(\.id))
    }

    @Test("each endpoint of the account gets every event; every answer's status is kept, none retried by the stand-in")
    func endpointsAndStatuses() throws {
        let fixture = try StripeFixture()
        let failing = try LoopbackServer()
        let healthy = try LoopbackServer()
        failing.answer([500])
        let a = fixture.standIn.addEndpoint(url: failing.webhookURL)
        let b = fixture.standIn.addEndpoint(url: healthy.webhookURL)
        let first = fixture.standIn.record(draft())
        let second = fixture.standIn.record(draft())
        #expect(Poll.until(timeout: 20) { fixture.standIn.deliveries.count == 4 })
        let deliveries = fixture.standIn.deliveries
        #expect(deliveries.map(\.eventID) == [first.id, first.id, second.id, second.id])
        #expect(deliveries.map(\.endpointID) == [a.id, b.id, a.id, b.id])
        #expect(deliveries.map(\.status) == [500, 200, 200, 200])
        #expect(failing.received.count == 2 && healthy.received.count == 2)
        #expect(fixture.standIn.events.allSatisfy { $0.json["pending_webhooks"] == 2 })
    }

    @Test("a receiver that is down: the delivery is kept with no status and why")
    func unanswered() throws {
        let fixture = try StripeFixture()
        let receiver = try LoopbackServer()
        let url = receiver.webhookURL
        receiver.stop()
        fixture.standIn.addEndpoint(url: url)
        fixture.standIn.record(draft())
        #expect(Poll.until(timeout: 20) { fixture.standIn.deliveries.count == 1 })
        #expect(fixture.standIn.deliveries[0].status == nil && fixture.standIn.deliveries[0].failure?.contains("connection_failed") == true)
    }

    @Test("another account's endpoints get nothing of this account's events, and its key lists only its own")
    func accounts() throws {
        let mine = StripeStandInAccount.test()
        let theirs = StripeStandInAccount(id: "acct_theirs", secretKey: "sk_live_" + String(repeating: "t", count: 24), livemode: true)
        let standIn = try StripeStandIn(configuration: StripeStandInConfiguration(accounts: [mine, theirs]))
        defer { standIn.stop() }
        let receiver = try LoopbackServer()
        standIn.addEndpoint(url: receiver.webhookURL, account: theirs.id)
        standIn.record(draft())
        let live = standIn.record(draft(), account: theirs.id)
        let all = try received(receiver, count: 1)
        #expect(Poll.until(timeout: 20) { standIn.isIdle })
        #expect(all.count == 1 && eventID(all[0]) == live.id && live.json["livemode"] == true)
        let client = StripeAPIClient(configuration: try StripeAPIConfiguration(appID: "a", secretKey: theirs.secretKey, baseURL: standIn.baseURL))
        defer { client.close() }
        #expect(try client.events(since: 0).events.map(\.id) == [live.id])
    }
}
