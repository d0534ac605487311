import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("The webhook subscription decider", .bounded)
struct WebhookDeciderTests {
    static let known: Set<WebhookSubject> = [WebhookSubject(.project, "web"), WebhookSubject(.payer, "acme"), WebhookSubject(.org, "school")]

    static func add(id: String = "hook", subjects: [WebhookSubject] = [WebhookSubject(.project, "web")], types: [String] = [],
                    threshold: Millicredits? = nil, projectExists: Bool = true) throws(Refusal) -> Decision {
        try WebhookDecider.add(id: id, project: "web", url: "https://example.com/hooks", subjects: subjects, types: types,
                               balanceLowThreshold: threshold, projectExists: projectExists, known: known)
    }

    static func code(_ body: () throws -> Decision) -> String? {
        do { _ = try body(); return nil } catch let refusal as Refusal { return refusal.code.rawValue } catch { return "\(error)" }
    }

    @Test("add: one event on a new stream, billed to a project that exists, subjects sorted and once each")
    func add() throws {
        let decision = try Self.add(subjects: [WebhookSubject(.payer, "acme"), WebhookSubject(.project, "web"), WebhookSubject(.payer, "acme")],
                                    types: ["subscription.*", "month.closed", "month.closed"])
        #expect(decision.expectedVersions == ["webhook-hook": .noStream, "project-web": .streamExists])
        let event = try decision.events[0].decode(WebhookSubscriptionAdded.self)
        #expect(event.subjects.map(\.description) == ["payer:acme", "project:web"])
        #expect(event.types == ["month.closed", "subscription.*"])
        #expect(decision.events[0].data["subjects"] == ["payer:acme", "project:web"])
    }

    @Test("add refuses what no message could be sent for, or bill")
    func addRefusals() {
        #expect(Self.code { try Self.add(id: "Bad Id") } == "out_of_range")
        #expect(Self.code { try Self.add(projectExists: false) } == "not_found")
        #expect(Self.code { try Self.add(subjects: []) } == "out_of_range")
        #expect(Self.code { try Self.add(subjects: [WebhookSubject(.app, "nope")]) } == "not_found")
        #expect(Self.code { try Self.add(types: ["subscription.started", "refund.*"]) } == "out_of_range")
        #expect(Self.code { try Self.add(types: ["balance"]) } == "out_of_range")
        #expect(Self.code { try Self.add(threshold: Millicredits(canonical: "-1")!) } == "out_of_range")
        #expect(Self.code { try Self.add(subjects: (0...50).map { WebhookSubject(.project, "p\($0)") }) } == "out_of_range")
    }

    @Test("the stream folds into the subscription; disable and rotate judge it, at its version")
    func lifecycle() throws {
        let added = try Self.add().events[0]
        var stream: [(type: String, data: JSONValue)] = [(added.type, added.data)]
        var subscription = try #require(try WebhookDecider.Subscription(id: "hook", stream: stream))
        #expect(subscription == WebhookDecider.Subscription(id: "hook", active: true, generation: 1))

        let now = try #require(Timestamp(iso8601: "2026-12-01T00:00:00Z"))
        let rotate = try WebhookDecider.rotate(subscription, id: "hook", version: 1, now: now)
        #expect(rotate.expectedVersions == ["webhook-hook": .exactly(1)])
        let rotated = try rotate.events[0].decode(WebhookSecretRotated.self)
        #expect(rotated.generation == 2)
        #expect(rotated.previousValidUntil.iso8601 == "2026-12-02T00:00:00.000000Z")
        stream.append((rotate.events[0].type, rotate.events[0].data))
        subscription = try #require(try WebhookDecider.Subscription(id: "hook", stream: stream))
        #expect(subscription.generation == 2)
        #expect(Self.code { try WebhookDecider.rotate(subscription, id: "hook", version: 2, now: now, overlap: 31 * 24 * 3_600_000_000) } == "out_of_range")

        let disable = try WebhookDecider.disable(subscription, id: "hook", version: 2)
        stream.append((disable.events[0].type, disable.events[0].data))
        subscription = try #require(try WebhookDecider.Subscription(id: "hook", stream: stream))
        #expect(!subscription.active)
        #expect(Self.code { try WebhookDecider.disable(subscription, id: "hook", version: 3) } == "already_disabled")
        #expect(Self.code { try WebhookDecider.rotate(subscription, id: "hook", version: 3, now: now) } == "already_disabled")
        #expect(Self.code { try WebhookDecider.disable(nil, id: "ghost", version: 0) } == "not_found")
        #expect(try WebhookDecider.Subscription(id: "hook", stream: []) == nil)
    }

    @Test("a type filter: exact types and families, none meaning all", arguments: WebhookMessageType.allCases)
    func filters(_ type: WebhookMessageType) {
        #expect(WebhookMessageType.matches(type, filter: []))
        #expect(WebhookMessageType.matches(type, filter: [type.rawValue]))
        let family = String(type.rawValue.prefix { $0 != "." }) + ".*"
        #expect(WebhookMessageType.matches(type, filter: [family]))
        let others = WebhookMessageType.allCases.filter { !$0.rawValue.hasPrefix(String(family.dropLast())) }.map(\.rawValue)
        #expect(!WebhookMessageType.matches(type, filter: others))
    }

    @Test("a balance crossing is recorded once per side, under a key naming the crossing it follows")
    func balanceCrossings() throws {
        let subject = WebhookSubject(.payer, "acme")
        func watch(_ available: Int64, _ last: (below: Bool, position: Int64)?) -> Decision? {
            WebhookDeliveryDecider.watch(webhook: "hook", subject: subject, threshold: Millicredits(500), available: Millicredits(available),
                                         last: last)
        }
        #expect(watch(600, nil) == nil, "above, and never below: nothing")
        let below = try #require(watch(400, nil))
        #expect(below.events[0].idempotencyKey == "balance-crossing:hook:payer:acme:after-0")
        #expect(try below.events[0].decode(WebhookBalanceThresholdCrossed.self).below)
        #expect(watch(400, nil)?.events[0].idempotencyKey == below.events[0].idempotencyKey, "a look repeated before the fold: the same key")
        #expect(watch(300, (true, 7)) == nil, "still below")
        let back = try #require(watch(500, (true, 7)))
        #expect(back.events[0].idempotencyKey == "balance-crossing:hook:payer:acme:after-7")
        #expect(try !back.events[0].decode(WebhookBalanceThresholdCrossed.self).below, "at the threshold is not below it")
    }
}
