import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// What a delivery attempt writes into the permanent log about the receiver's answer: its
/// digest and length, never its bytes; and attempts recorded before that still read.
@Suite("A webhook attempt's record of the answer", .bounded)
struct WebhookAttemptRecordTests {
    static let now = Timestamp(iso8601: "2026-11-15T12:00:00Z")!
    static let digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

    static func attempt(status: Int64?, error: String? = nil, digest: String?, bytes: Int64?) -> WebhookDeliveryDecider.Attempt {
        WebhookDeliveryDecider.Attempt(webhookID: "hook", projectID: "web", sequence: 1, messageID: "m-1", number: 1,
                                       madeAt: now, status: status, error: error, latencyMilliseconds: 12,
                                       answerSHA256: digest, answerBytes: bytes)
    }

    @Test("an answered attempt records the answer's SHA-256 and length, and no excerpt")
    func digestNotBytes() throws {
        let decision = WebhookDeliveryDecider.record(Self.attempt(status: 200, digest: Self.digest, bytes: 4), now: Self.now,
                                                     jitter: 0.5, usage: UsageState(funding: [:], closedMonths: []))
        let pending = try #require(decision.events.first { $0.type == WebhookDeliveryAttempted.type })
        #expect(pending.data["answer_sha256"] == .string(Self.digest))
        #expect(pending.data["answer_bytes"] == .integer(4))
        #expect(pending.data["status"] == .integer(200))
        #expect(pending.data["excerpt"] == nil, "\(pending.data)")
    }

    @Test("an attempt without an answer records neither digest nor length")
    func noAnswer() throws {
        let decision = WebhookDeliveryDecider.record(Self.attempt(status: nil, error: "timed_out: 10 s", digest: nil, bytes: nil),
                                                     now: Self.now, jitter: 0.5, usage: UsageState(funding: [:], closedMonths: []))
        let pending = try #require(decision.events.first { $0.type == WebhookDeliveryAttempted.type })
        #expect(pending.data["answer_sha256"] == nil && pending.data["answer_bytes"] == nil && pending.data["excerpt"] == nil)
        #expect(pending.data["outcome"] == "retrying")
    }

    @Test("an attempt recorded with an excerpt, before the digest, still decodes, with no digest")
    func oldEventDecodes() throws {
        let old = try JSONValue.parse("""
            {"webhook_id": "hook", "sequence": 3, "message_id": "m-3", "attempt": 2, "outcome": "delivered", "status": 200,
             "latency_ms": 41, "excerpt": "the receiver's own words"}
            """)
        let event = try JSONValueDecoder().decode(WebhookDeliveryAttempted.self, from: old)
        #expect(event.excerpt == "the receiver's own words")
        #expect(event.answerSHA256 == nil && event.answerBytes == nil)
        #expect(event.sequence == 3 && event.attempt == 2 && event.outcome == .delivered && event.status == 200)
        #expect(event.latencyMilliseconds == 41 && event.nextAttemptAt == nil)
    }
}
