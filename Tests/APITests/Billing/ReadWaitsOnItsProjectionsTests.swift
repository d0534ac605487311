import API
import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import ProjectionEngine
import Projections
import Testing
import TestSupport

/// The webhooks projection, stopping in front of any `test.poison` event (the projector
/// then applies what comes before it and stops there), while every other projection goes on.
struct WebhooksStoppingOnPoison: Projection {
    let base = WebhooksProjection()
    var name: String { base.name }
    var version: Int { base.version }
    var tablesSQL: [String] { base.tablesSQL }
    var deferredIndexesSQL: [String] { base.deferredIndexesSQL }
    var tables: [String] { base.tables }

    func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        if let poison = events.first(where: { $0.type == "test.poison" }) {
            throw PoisonEvent(position: poison.position, underlying: ProjectionError("a poison event of the tests"))
        }
        try base.apply(events, in: context)
    }
}

@Suite("A read at a position waits for the projections it reads, and for those only", .bounded)
struct ReadWaitsOnItsProjectionsTests {
    @Test("J (read-your-writes): the feed waits on the webhooks projection stopped in front of an event; the balance at the same position answers")
    func feedWaitsOnWebhooks() throws {
        let projections = AllProjections.all.map { $0.name == WebhooksProjection().name ? WebhooksStoppingOnPoison() : $0 }
        let f = try BillingFixture(service: TestService(projections: projections), projections: projections)
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        // Before the poison event, the feed answers at the head.
        let before = try f.service.store.log.headPosition()
        #expect(Poll.until { (try? f.get("/v1/projects/solo/events?min_position=\(before)", key: key).status) == 200 })

        _ = try f.service.store.append(AppendRequest(event("test-poison", "test.poison")))
        let credit = try f.credit(.project("solo"), .grant, 1_000)
        let balance = try f.get("/v1/projects/solo/balance?min_position=\(credit.position)", key: key)
        #expect(balance.status == 200)
        #expect(balance.body["position"]?.int64Value == credit.position)

        let started = Date()
        let feed = try f.get("/v1/projects/solo/events?min_position=\(credit.position)", key: key)
        #expect(feed.status == 503, "\(feed.body)")
        #expect(feed.body["code"] == "projection_behind")
        #expect(feed.body["detail"]?.stringValue?.contains("webhooks") == true, "\(feed.body)")
        #expect(feed.headers["retry-after"] == "1")
        // It waited for the projection (five seconds from its arrival), not answered at once.
        #expect(Date().timeIntervalSince(started) >= 4)
    }

    @Test("a key revoked in the log is refused at once by a read at a later position, though the billing projection has not folded the revocation")
    func revokedInTheLog() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let secret = "sk_test_" + Hex.encode(SecureRandom.bytes(16))
        try f.append(KeyIssued(keyID: "k-revoked", principal: KeyPrincipal(kind: .project, id: "solo"),
                               sha256: Hex.encode(SHA256.hash(Array(secret.utf8))), prefix: String(secret.prefix(12))),
                     stream: "key-k-revoked")
        #expect(try f.get("/v1/projects/solo/balance", key: secret).status == 200)
        f.stopProjector()
        let revoked = try f.service.store.append(AppendRequest(events: [EventToAppend(
            stream: "key-k-revoked", type: KeyRevoked.type, data: try JSONValueEncoder().encode(KeyRevoked(keyID: "k-revoked")),
            metadata: EventMetadata(actor: f.operatorActor, reason: "test"))]))
        let started = Date()
        let read = try f.get("/v1/projects/solo/balance?min_position=\(revoked.position)", key: secret)
        #expect(read.status == 401, "\(read.body)")
        #expect(Date().timeIntervalSince(started) < 4)
    }
}
