import API
import Crypto
import Dispatch
import EventStore
import Foundation
import Glibc
import HTTP
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Observability
import Outbound
import ProjectionEngine
import Projections
import Synchronization
import TestSupport
import Testing
import WebhookSigning
import Workers

@Suite("The webhook dispatcher", .bounded)
struct WebhookSenderTests {
    static func dispatcher(_ f: AdminFixture, clock: ManualClock) -> WebhookSender {
        WebhookSender(configuration: .init(secrets: AdminFixture.webhookSecrets, policy: .development, interval: 0.05, timeout: 2,
                                               now: clock.read, jitter: { 0.5 }),
                          store: f.store, connections: f.pool, isActive: { true }, log: { _, _, _ in })
    }

    static func subscribe(_ f: AdminFixture, _ receiver: ScriptedReceiver) throws {
        try f.payer("acme")
        try f.project("web", payer: "acme")
        _ = try f.adminJSON(["webhook", "add", "--id", "hook", "--project", "web", "--url", receiver.url, "--subject", "payer:acme"])
    }

    /// Rebuilt from the log in batches of 2 (an attempt in the batch of its message, or in
    /// the next), every table of the projection is byte for byte the live one.
    static func rebuildsTheSame(_ f: AdminFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try f.settle()
        f.stopProjector()
        let webhooks = WebhooksProjection()
        let connection = try f.db.connect()
        let live = try webhooks.tables.map { try ProjectionSchema.checksum(schema: webhooks.schema, table: $0, on: connection) }
        for batch in [1, 2, 3, 1_000] {
            try ProjectionRebuilder(conninfo: f.db.projectorURL, batchSize: batch, log: { _, _, _ in }).rebuild([webhooks])
            #expect(try webhooks.tables.map { try ProjectionSchema.checksum(schema: webhooks.schema, table: $0, on: connection) } == live,
                    "batches of \(batch)", sourceLocation: sourceLocation)
        }
    }

    static func plan(_ f: AdminFixture, _ name: String) throws {
        _ = try f.adminJSON(["plan", "set", "--pool", "payer:acme", "--plan", name, "--allowance-storage-bytes", "1"])
    }

    @Test("messages arrive signed, in sequence order, once each; every attempt is recorded and billed to the project (U4)")
    func delivered() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try Self.subscribe(f, receiver)
        for name in ["pro", "team", "pro"] { try Self.plan(f, name) }
        let clock = ManualClock.atMachineTime()
        let dispatcher = Self.dispatcher(f, clock: clock)
        #expect(Poll.until(timeout: 20) { receiver.received.count == 3 })
        dispatcher.stop()
        let received = receiver.received
        #expect(received.map(\.sequence) == [1, 2, 3])
        let secret = AdminFixture.webhookSecrets.secret(webhook: "hook", generation: 1)
        for message in received {
            #expect(throws: Never.self) {
                try WebhookSignature.verify(message.signature, body: message.body, secret: secret, now: Double(clock.now.microseconds) / 1e6)
            }
            let json = try JSONValue.parse(String(decoding: message.body, as: UTF8.self))
            #expect(json["id"]?.stringValue == message.messageID)
            #expect(json["type"] == "plan.changed")
            #expect(json["subject"] == "payer:acme")
            #expect(json["event"]?["type"] == "plan.set")
            #expect(json["state"]?["balance"]?["posted"] == "0")
        }
        let plans = try received.map { try JSONValue.parse(String(decoding: $0.body, as: UTF8.self))["state"]?["plan"]?["name"] }
        #expect(plans == ["pro", "team", "pro"], "each message carries the plan right after its event")
        try f.settle()
        #expect(try f.rows("SELECT status, attempts::text FROM proj_webhooks.deliveries ORDER BY sequence")
                == [["delivered", "1"], ["delivered", "1"], ["delivered", "1"]])
        #expect(try f.rows("SELECT sum(webhook_deliveries)::text FROM proj_billing.project_months WHERE project_id = 'web'") == [["3"]])
        let deliveries = try f.read(["webhook", "deliveries", "--id", "hook"])["attempts"]?.arrayValue ?? []
        #expect(deliveries.map { $0["outcome"] } == ["delivered", "delivered", "delivered"])
        #expect(deliveries.first?["status"] == .integer(200))

        // Replayed from 2: messages 2 and 3 again, in order, the same bytes.
        #expect(f.admin(["webhook", "replay", "--id", "hook", "--from", "4"]).errors.contains("has messages 1 to 3"))
        _ = try f.adminJSON(["webhook", "replay", "--id", "hook", "--from", "2"])
        clock.advance(seconds: 60)   // due from the replay's recording time, by the machine's clock
        let again = Self.dispatcher(f, clock: clock)
        try #require(Poll.until(timeout: 20) { receiver.received.count == 5 })
        again.stop()
        #expect(receiver.received.map(\.sequence) == [1, 2, 3, 2, 3])
        #expect(receiver.received[3].body == received[1].body && receiver.received[4].body == received[2].body)
        try Self.rebuildsTheSame(f)
    }

    @Test("an answer is recorded in the log by its SHA-256 and length, never by its bytes")
    func answerRecordedByDigest() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        let answer = Array("{\"received\": true, \"note\": \"words of the receiver's, not the ledger's\"}\n".utf8)
        receiver.answerBody(answer)
        try Self.subscribe(f, receiver)
        try Self.plan(f, "pro")
        let dispatcher = Self.dispatcher(f, clock: ManualClock.atMachineTime())
        let recorded = "SELECT data::text FROM events WHERE type = 'webhook.delivery_attempted'"
        try #require(try Poll.until(timeout: 20) { try f.rows(recorded).count == 1 })
        dispatcher.stop()
        let text = try #require(try f.rows(recorded).first?.first ?? nil)
        let data = try JSONValue.parse(text)
        #expect(data["excerpt"] == nil, "no field for the answer's bytes: \(text)")
        #expect(data["answer_sha256"]?.stringValue == Hex.encode(SHA256.hash(answer)))
        #expect(data["answer_bytes"] == .integer(Int64(answer.count)))
        #expect(data["status"] == .integer(200))
        #expect(!text.contains("receiver's"), "none of the answer's words is in the event")

        try f.settle()
        let listed = try #require(try f.read(["webhook", "deliveries", "--id", "hook"])["attempts"]?.arrayValue?.first)
        #expect(listed["answer_sha256"] == data["answer_sha256"] && listed["answer_bytes"] == data["answer_bytes"])
        #expect(listed["excerpt"] == nil)
        try Self.rebuildsTheSame(f)
    }

    @Test("an attempt recorded with an excerpt, before the digest, still folds; a rebuild from zero keeps no excerpt")
    func oldAttemptWithAnExcerptFolds() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try Self.subscribe(f, receiver)
        try Self.plan(f, "pro")
        try f.settle()
        let message = try #require(try f.rows("SELECT message_id FROM proj_webhooks.deliveries WHERE sequence = 1").first?.first ?? nil)
        // As the sender wrote attempts before the digest: the answer's first KiB in the event.
        let old: JSONValue = ["webhook_id": "hook", "sequence": 1, "message_id": .string(message), "attempt": 1, "outcome": "delivered",
                              "status": 200, "latency_ms": 7, "excerpt": "what the receiver said, kept before the digest"]
        _ = try f.store.append(AppendRequest(EventToAppend(stream: WebhookDeliveryDecider.stream("hook"), type: WebhookDeliveryAttempted.type,
                                                           data: old, metadata: EventMetadata(actor: Actor(.system, "webhooks")))))
        try f.settle()
        #expect(try f.rows("SELECT status, attempts::text FROM proj_webhooks.deliveries") == [["delivered", "1"]])
        #expect(try f.rows("SELECT answer_sha256, answer_bytes::text, latency_ms::text FROM proj_webhooks.attempts") == [[nil, nil, "7"]])
        let listed = try #require(try f.read(["webhook", "deliveries", "--id", "hook"])["attempts"]?.arrayValue?.first)
        #expect(listed["outcome"] == "delivered" && listed["excerpt"] == nil && listed["answer_sha256"]?.stringValue == nil)
        try Self.rebuildsTheSame(f)
    }

    @Test("a failing receiver holds its subscription's next messages back; retries back off; after three days the message is dead")
    func retriesAndDeadLetters() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try Self.subscribe(f, receiver)
        try Self.plan(f, "pro")
        try Self.plan(f, "team")
        receiver.answer([500, 503])
        let clock = ManualClock.atMachineTime()
        let dispatcher = Self.dispatcher(f, clock: clock)
        defer { dispatcher.stop() }
        #expect(Poll.until(timeout: 20) { receiver.received.count == 1 })
        // Message 2 waits behind message 1, which waits 10 s (jitter 0.5: no spread).
        let held = [["pending", "1"], ["pending", "0"]]
        _ = try Poll.until(timeout: 20) { try f.rows("SELECT status, attempts::text FROM proj_webhooks.deliveries ORDER BY sequence") == held }
        #expect(try f.rows("SELECT status, attempts::text FROM proj_webhooks.deliveries ORDER BY sequence") == held)
        #expect(receiver.received.map(\.sequence) == [1])
        // The clock moves only once the attempt is folded: its next attempt is reckoned
        // from the time it was recorded.
        func folded(_ sequence: Int, attempts: Int) throws -> Bool {
            try Poll.until(timeout: 20) {
                try f.rows("SELECT attempts::text FROM proj_webhooks.deliveries WHERE sequence = \(sequence)") == [[String(attempts)]]
            }
        }
        clock.advance(seconds: 10)
        #expect(Poll.until(timeout: 20) { receiver.received.count == 2 })
        #expect(try folded(1, attempts: 2))
        clock.advance(seconds: 20)
        #expect(Poll.until(timeout: 20) { receiver.received.count == 4 })
        #expect(receiver.received.map(\.sequence) == [1, 1, 1, 2])
        #expect(Set(receiver.received.prefix(3).map(\.messageID)).count == 1, "a message keeps its id on every attempt")

        // A receiver down for three days: the message is dead and the next one goes.
        try Self.plan(f, "pro")
        try Self.plan(f, "free")
        receiver.answer(Array(repeating: 500, count: 200))
        #expect(Poll.until(timeout: 20) { receiver.received.count == 5 })
        var attempts = 1
        while try f.rows("SELECT status FROM proj_webhooks.deliveries WHERE sequence = 3") != [["dead"]] && attempts < 120 {
            try #require(try folded(3, attempts: attempts))
            clock.advance(seconds: 3_600)
            attempts += 1
            _ = try Poll.until(timeout: 20) {
                try f.rows("SELECT attempts::text FROM proj_webhooks.deliveries WHERE sequence = 3") == [[String(attempts)]]
            }
        }
        #expect(try f.rows("SELECT status FROM proj_webhooks.deliveries WHERE sequence = 3") == [["dead"]])
        receiver.answer([])   // (the rest of the 500s still queued)
        #expect(attempts > 60, "retried for three days, backing off to once an hour (\(attempts) attempts)")
        #expect(Poll.until(timeout: 20) { receiver.received.last?.sequence == 4 }, "the next message goes once the dead one is set aside")

        // The operator sends it again once the receiver works.
        let retry = f.admin(["webhook", "retry", "--id", "hook", "--sequence", "3"])
        #expect(retry.status == 0, "\(retry.errors)")
        #expect(f.admin(["webhook", "retry", "--id", "hook", "--sequence", "1"]).errors.contains("not dead"))
        dispatcher.stop()
        try Self.rebuildsTheSame(f)
    }

    @Test("an attempt the dispatcher could not record is sent again, with the same message id (at least once)")
    func resentAfterALostRecord() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try Self.subscribe(f, receiver)
        try Self.plan(f, "pro")
        let clock = ManualClock.atMachineTime()
        // A dispatcher whose store is closed: it sends, then cannot record (as if killed).
        let closed = EventStore(conninfo: f.db.writerURL)
        closed.close()
        let lost = WebhookSender(configuration: .init(secrets: AdminFixture.webhookSecrets, policy: .development, interval: 0.05,
                                                          timeout: 0.5, now: clock.read, jitter: { 0.5 }),
                                     store: closed, connections: f.pool, isActive: { true }, log: { _, _, _ in })
        #expect(Poll.until(timeout: 20) { receiver.received.count == 1 })
        lost.stop()
        try f.settle()
        #expect(try f.rows("SELECT attempts::text FROM proj_webhooks.deliveries") == [["0"]])
        let dispatcher = Self.dispatcher(f, clock: clock)
        #expect(Poll.until(timeout: 20) { receiver.received.count == 2 })
        dispatcher.stop()
        #expect(receiver.received[0].messageID == receiver.received[1].messageID)
        #expect(receiver.received[0].body == receiver.received[1].body, "the same bytes: the body is a function of the log")
    }

    @Test("kill -9 of the projector's process mid-delivery: the next projector sends the message again, same id, and nothing is lost")
    func killedMidDelivery() throws {
        let f = try AdminFixture(projector: false)
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        receiver.answer([0])
        let environment = ["DATABASE_URL": f.db.projectorURL, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory,
                           "LEDGER_PROJECTOR_POLL_INTERVAL": "0.2", "LEDGER_WEBHOOK_KEY": AdminFixture.webhookKey]
        let first = try LedgerBinary.start(["project"], environment: environment)
        try Self.subscribe(f, receiver)
        try Self.plan(f, "pro")
        try #require(Poll.until(timeout: 30) { receiver.received.count == 1 }, "the first projector did not send: \(first.errors)")
        first.kill(signal: SIGKILL)
        _ = first.wait()
        receiver.release()

        let second = try LedgerBinary.start(["project"], environment: environment)
        defer { second.kill(signal: SIGTERM); _ = second.wait() }
        try #require(Poll.until(timeout: 30) { receiver.received.count == 2 }, "the second projector did not send: \(second.errors)")
        let received = receiver.received
        #expect(received[0].messageID == received[1].messageID)
        #expect(received[0].body == received[1].body)
        #expect(try Poll.until(timeout: 30) {
            try f.rows("SELECT status, attempts::text FROM proj_webhooks.deliveries") == [["delivered", "1"]]
        })
    }

    @Test("an organization's messages carry its plan and the subscription as they were right after the event; an end says how it ended (revoked)")
    func organizationState() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try f.project("web")
        _ = try f.append(OrganizationCreated(orgID: "school", name: "A School"), stream: "org-school")
        _ = try f.adminJSON(["webhook", "add", "--id", "hook", "--project", "web", "--url", receiver.url, "--subject", "org:school"])
        let now = ManualClock.atMachineTime().now
        func transaction(_ id: String, _ plan: Plan, _ product: String, after seconds: Int64) -> AppStoreTransactionRecorded {
            let at = Timestamp(microseconds: now.microseconds + seconds * 1_000_000)!
            return AppStoreTransactionRecorded(orgID: "school", originalTransactionID: "7001", transactionID: id, productID: product,
                                               plan: plan, purchaseDate: at, expiresDate: Timestamp(microseconds: at.microseconds + 30 * 86_400_000_000),
                                               revocationDate: nil, signedDate: at, environment: "Sandbox", personID: "p1", via: "storekit",
                                               expiredWhenRecorded: false)
        }
        _ = try f.append(transaction("8001", .plus, "ai.screenrig.plus.monthly", after: -60), stream: "appstore-sub-7001")
        _ = try f.append(transaction("8002", .premium, "ai.screenrig.premium.monthly", after: -30), stream: "appstore-sub-7001")
        _ = try f.append(AppStoreSubscriptionEnded(orgID: "school", originalTransactionID: "7001", reason: "REVOKE",
                                                   signedDate: Timestamp(microseconds: now.microseconds - 10_000_000)!, notificationUUID: "n1"),
                         stream: "appstore-sub-7001")
        let clock = ManualClock.atMachineTime()
        clock.advance(seconds: 5)
        let dispatcher = Self.dispatcher(f, clock: clock)
        defer { dispatcher.stop() }
        try #require(Poll.until(timeout: 20) { receiver.received.count == 3 })
        let bodies = try receiver.received.map { try JSONValue.parse(String(decoding: $0.body, as: UTF8.self)) }
        #expect(bodies.map { $0["type"] } == ["subscription.started", "subscription.upgraded", "subscription.refunded"])
        #expect(bodies.map { $0["state"]?["plan"]?["current"] } == ["plus", "premium", "premium"])
        #expect(bodies.map { $0["state"]?["plan"]?["source"] } == ["app_store", "app_store", "app_store"])
        #expect(bodies.map { $0["state"]?["subscription"]?["product_id"] } == ["ai.screenrig.plus.monthly", "ai.screenrig.premium.monthly",
                                                                               "ai.screenrig.premium.monthly"])
        #expect(bodies.map { $0["state"]?["subscription"]?["status"] } == ["active", "active", "revoked"])
        #expect(bodies.first?["state"]?["subscription"]?["environment"] == "Sandbox")
    }

    @Test("balance.low: sent once when the available balance goes below the threshold, again only after it went back above")
    func balanceLow() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        let receiver = try ScriptedReceiver()
        defer { receiver.stop() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"])
        _ = try f.adminJSON(["webhook", "add", "--id", "hook", "--project", "web", "--url", receiver.url, "--subject", "payer:acme",
                             "--type", "balance.low", "--balance-low-threshold", "500"])
        // An hour ahead: the messages this test makes are due at once.
        let clock = ManualClock.atMachineTime()
        clock.advance(seconds: 3_600)
        let pool = f.pool
        // Every look the sender takes, with what it saw: "nothing happened" is checked only
        // after the sender has looked, however slow the machine.
        let looks = Mutex<[String]>([])
        let dispatcher = WebhookSender(
            configuration: .init(secrets: AdminFixture.webhookSecrets, policy: .development, interval: 0.05, timeout: 2, now: clock.read,
                                 jitter: { 0.5 },
                                 available: { subject in
                                     let seen = try QueryRunner(connections: pool, clock: SystemClock.now).answer(BalanceQuery(.payer(subject.id)), as: .operator("tests"))?.available
                                     looks.withLock { $0.append(seen?.description ?? "none") }
                                     return seen
                                 }, watchInterval: 0.05),
            store: f.store, connections: f.pool, isActive: { true }, log: { _, _, _ in })
        defer { dispatcher.stop() }
        func crossings() throws -> [[String?]] {
            try f.rows("SELECT below::text, available::text FROM proj_webhooks.balance_watch")
        }
        /// Until the sender has seen `available` and looked twice more (so it has acted on
        /// what it saw), and the webhooks projection has folded whatever it appended.
        func lookedPast(_ available: String) throws {
            try #require(Poll.until(timeout: 20) {
                looks.withLock { seen in seen.firstIndex(of: available).map { seen.count - $0 >= 3 } ?? false }
            }, "the sender never saw \(available): \(looks.withLock { $0.suffix(5) })")
            let head = try f.head()
            try #require(try ProjectionWait.until(WebhooksProjection(), reaches: head, connections: f.pool, timeout: 20))
        }
        // Above the threshold: the first look records nothing.
        try lookedPast("1000")
        #expect(try crossings().isEmpty)

        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "web", "--amount", "600", "--description", "job"])
        try #require(Poll.until(timeout: 20) { receiver.received.count == 1 })
        let message = try JSONValue.parse(String(decoding: receiver.received[0].body, as: UTF8.self))
        #expect(message["type"] == "balance.low")
        #expect(message["subject"] == "payer:acme")
        #expect(message["event"]?["data"]?["available"] == "400")
        #expect(message["event"]?["data"]?["threshold"] == "500")
        #expect(try Poll.until(timeout: 10) { try crossings() == [["true", "400"]] })

        // Still below after more is held: nothing more.
        _ = try f.adminJSON(["hold", "place", "--id", "h2", "--project", "web", "--amount", "100", "--description", "job"])
        try lookedPast("300")
        #expect(try crossings() == [["true", "400"]], "no second crossing while it stays below")
        // Back above, then below again: a second message.
        // Only crossings are recorded: the sender may look between the two releases
        // (900 available) or after both (1,000); either way it is back above.
        _ = try f.adminJSON(["hold", "release", "--id", "h1"])
        _ = try f.adminJSON(["hold", "release", "--id", "h2"])
        #expect(try Poll.until(timeout: 20) { try [[["false", "900"]], [["false", "1000"]]].contains(crossings()) })
        _ = try f.adminJSON(["hold", "place", "--id", "h3", "--project", "web", "--amount", "700", "--description", "job"])
        try #require(Poll.until(timeout: 20) { receiver.received.count == 2 })
        #expect(receiver.received.map(\.sequence) == [1, 2])
        dispatcher.stop()
        try Self.rebuildsTheSame(f)
    }
}
