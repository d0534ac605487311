import Foundation
import LedgerDomain
import LedgerJSON
import Synchronization
import Testing
import TestSupport
import Threads
import Workers
import WebhookSigning

/// `GET /v1/{payers|projects}/{id}/events`: the pull feed of webhook messages.
@Suite("The webhook messages' pull feed", .bounded)
struct MessageFeedTests {
    @Test("a payer's messages in its own gapless order, paged with after; a project sees its own; keys read only theirs")
    func feed() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("solo")
        for plan in ["pro", "team", "pro"] {
            try f.append(PlanSet(pool: .payer("acme"), plan: plan, allowanceStorageBytes: 1), stream: "payer-acme")
        }
        try f.usage("web", .apiRequests, 20_000, at: "2026-10-10T00:00:00Z")
        _ = try f.closeMonth(.payer("acme"), "2026-10")
        try f.settle()
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        let webKey = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        try f.settle()

        let first = try f.get("/v1/payers/acme/events?limit=2", key: payerKey)
        #expect(first.status == 200)
        #expect(first.body["subject"] == "payer:acme")
        #expect(first.body["messages"]?.arrayValue?.map { $0["sequence"] } == [.integer(1), .integer(2)])
        #expect(first.body["has_more"] == true)
        #expect(first.body["next_after"] == .integer(2))
        let rest = try f.get("/v1/payers/acme/events?after=2", key: payerKey)
        let types = rest.body["messages"]?.arrayValue?.map { $0["type"] }
        #expect(types == ["plan.changed", "plan.changed", "month.closed"])
        #expect(rest.body["has_more"] == false)
        let all = (first.body["messages"]?.arrayValue ?? []) + (rest.body["messages"]?.arrayValue ?? [])
        for message in all {
            let position = try #require(message["position"]?.int64Value)
            let type = try #require(message["type"]?.stringValue.flatMap(WebhookMessageType.init(rawValue:)))
            #expect(message["id"]?.stringValue == WebhookMessages.messageID(position: position, type: type, subject: WebhookSubject(.payer, "acme")))
        }

        let web = try f.get("/v1/projects/web/events", key: webKey)
        #expect(web.body["messages"]?.arrayValue?.map { $0["type"] } == ["month.closed", "usage.month_summary"])
        #expect(web.body["messages"]?.arrayValue?.first?["sequence"] == .integer(1))
        let summary = web.body["messages"]?.arrayValue?.last?["state"]
        #expect(summary?["month"] == "2026-10")
        #expect(summary?["charge"]?["project_id"] == "web")
        #expect(summary?["charge"]?["units"] == "20000" || summary?["charge"]?["units"] == .integer(20_000))
        let closed = rest.body["messages"]?.arrayValue?.last
        #expect(closed?["state"]?["balance"]?["posted"]?.stringValue != nil, "a month close says what is posted after it")
        #expect(try f.get("/v1/payers/acme/events", key: webKey).status == 404)
        #expect(try f.get("/v1/payers/acme/events?after=-1", key: payerKey).status == 400)
        #expect(try f.get("/v1/payers/acme/events?after=x", key: payerKey).status == 400)
        #expect(try f.get("/v1/payers/acme/events", key: nil).status == 401)
        #expect(try f.get("/v1/payers/acme/events?after=99", key: payerKey).body["messages"] == [])
    }

    @Test("U6, U7: a funded project's feed carries its own line of the payer's month close, never its sibling's")
    func fundedProjectSeesOnlyItsOwnCharges() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("mobile", payer: "acme")
        try f.usage("web", .apiRequests, 12_345, at: "2026-10-10T00:00:00Z")
        try f.usage("mobile", .apiRequests, 67_891, at: "2026-10-11T00:00:00Z")
        _ = try f.closeMonth(.payer("acme"), "2026-10")
        let webKey = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        try f.settle()

        let web = try f.get("/v1/projects/web/events", key: webKey)
        #expect(web.status == 200)
        let text = web.body.compactText()
        #expect(!text.contains("mobile") && !text.contains("67891"), "the sibling leaks into web's feed: \(text)")
        let closed = try #require(web.body["messages"]?.arrayValue?.first { $0["type"] == "month.closed" })
        let charges = closed["event"]?["data"]?["charges"]?.arrayValue ?? []
        #expect(charges.count == 1 && charges.first?["project_id"] == "web", "\(closed)")
        #expect(closed["event"]?["data"]?["pool"] == "payer:acme", "U6: the payer is named")
        // The payer, who funds both, reads both lines (U7).
        let payer = try f.get("/v1/payers/acme/events", key: payerKey).body.compactText()
        #expect(payer.contains("mobile") && payer.contains("web"))
    }

    @Test("the feed and the webhook carry the same messages, in order, under 8 concurrent writers")
    func sameMessagesAsTheWebhook() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try f.payer("acme")
        try f.append(WebhookSubscriptionAdded(webhookID: "hook", projectID: "acme-web", url: receiver.url,
                                              subjects: [WebhookSubject(.payer, "acme")], types: [], balanceLowThreshold: nil),
                     stream: "webhook-hook")
        let plans = ["pro", "team", "free", "solo"]
        let failures = Mutex<[String]>([])
        ThreadGroup.run(8, name: "writer") { w in
            for i in 0..<10 {
                do {
                    try f.append(PlanSet(pool: .payer("acme"), plan: plans[(w + i) % plans.count], allowanceStorageBytes: Int64(w * 100 + i)),
                                 stream: "payer-acme")
                } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        try f.settle()
        let secrets = WebhookSecrets(key: Array("the feed tests' webhook key, 32 bytes or more".utf8))
        let clock = ManualClock.atMachineTime()
        clock.advance(seconds: 5)
        let dispatcher = WebhookSender(configuration: .init(secrets: secrets, policy: .development, interval: 0.05, now: clock.read),
                                           store: f.service.store, connections: f.service.context.connections, isActive: { true }, log: { _, _, _ in })
        defer { dispatcher.stop() }
        try #require(Poll.until(timeout: 30) { receiver.received.count == 80 })
        let webhook = try receiver.received.map { try JSONValue.parse(String(decoding: $0.body, as: UTF8.self)) }
        #expect(webhook.map { $0["sequence"]?.int64Value } == (1...80).map { Int64($0) })
        let positions = webhook.compactMap { $0["position"]?.int64Value }
        #expect(positions == positions.sorted(), "in the log's order")

        // The feed lists the payer's creation plan too: its messages after the first are the webhook's.
        let key = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        try f.settle()
        var feed: [JSONValue] = []
        var after: Int64 = 0
        while true {
            let page = try f.get("/v1/payers/acme/events?limit=200&after=\(after)", key: key)
            try #require(page.status == 200)
            feed += page.body["messages"]?.arrayValue ?? []
            guard page.body["has_more"] == true, let next = page.body["next_after"]?.int64Value else { break }
            after = next
        }
        func withoutSequence(_ m: JSONValue) -> JSONValue {
            guard case .object(var o) = m else { return m }
            o["sequence"] = nil
            return .object(o)
        }
        #expect(feed.count == 81)
        #expect(feed.dropFirst().map(withoutSequence) == webhook.map(withoutSequence))
    }

    @Test("a projection not created yet (new in a release, before the projector made it) is a 503 with Retry-After, not a 500")
    func projectionNotThereYet() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let key = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        try f.settle()
        try f.service.db.connect().query("DROP SCHEMA proj_webhooks CASCADE")
        let answer = try f.get("/v1/payers/acme/events", key: key)
        #expect(answer.status == 503)
        #expect(answer.headers["retry-after"] == "1")
    }
}
