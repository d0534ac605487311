import LedgerDomain
import LedgerJSON
import Stripe
import Testing

/// Stripe's webhook signature, checked as Stripe documents it, against signatures computed
/// apart from the production code (Python's `hmac` over `"{t}.{body}"`, pasted here).
@Suite("Stripe's webhook signature and event")
struct StripeWebhookVerifierTests {
    static let body = #"{"id":"evt_1QxYz","object":"event","api_version":"2024-06-20","created":1767225590,"data":{"object":{"id":"cs_test_1","object":"checkout.session","client_reference_id":"user-42"}},"livemode":false,"type":"checkout.session.completed"}"#
    static let t: Int64 = 1_767_225_600
    static let old = "whsec_old_secret_0123456789"
    static let new = "whsec_new_secret_9876543210"
    /// HMAC-SHA256 of "1767225600." + body, keyed with each secret's text.
    static let oldV1 = "9dc958ec4ad6709b1f7e55a988c58092adb0f9c3501eb01f94e3608d5421edc0"
    static let newV1 = "326672494bca69ab649fe1afed674ddfad2b1f603124da74d36b9fb69dbc41f9"

    var bytes: [UInt8] { Array(Self.body.utf8) }

    func code(_ header: String?, secrets: [String] = [new], now: Double = Double(t), body: [UInt8]? = nil) -> String? {
        do {
            _ = try StripeWebhookVerifier(secrets: secrets).verify(header: header, body: body ?? bytes, now: now)
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    @Test("a v1 made with the endpoint secret verifies, and the event is read")
    func verifies() throws {
        let event = try StripeWebhookVerifier(secrets: [Self.new]).verify(header: "t=\(Self.t),v1=\(Self.newV1)", body: bytes, now: Double(Self.t))
        #expect(event.id == "evt_1QxYz" && event.type == "checkout.session.completed" && !event.livemode)
        #expect(event.created == Timestamp(microseconds: 1_767_225_590_000_000) && event.apiVersion == "2024-06-20")
        #expect(event.object["client_reference_id"] == "user-42")
    }

    @Test("while a secret is rolled either verifies; once the old one is removed its signature is refused")
    func rolledSecrets() {
        #expect(code("t=\(Self.t),v1=\(Self.oldV1)", secrets: [Self.new, Self.old]) == nil)
        #expect(code("t=\(Self.t),v1=\(Self.newV1)", secrets: [Self.new, Self.old]) == nil)
        #expect(code("t=\(Self.t),v1=\(Self.oldV1)", secrets: [Self.new]) == "stripe_signature_mismatch")
        // Stripe sends one v1 per secret during its own roll: any of them matching verifies.
        #expect(code("t=\(Self.t),v1=\(Self.oldV1),v1=\(Self.newV1)", secrets: [Self.new]) == nil)
    }

    @Test("v0 and schemes unknown are ignored: a header with only those has no v1")
    func otherSchemes() {
        #expect(code("t=\(Self.t),v0=\(Self.newV1),v1=\(Self.newV1),v9=abc") == nil)
        #expect(code("t=\(Self.t),v0=\(Self.newV1)") == "stripe_signature_malformed")
    }

    @Test("each refusal has its code: missing, malformed, stale either way past 300 s, mismatched body or time")
    func refusals() {
        #expect(code(nil) == "stripe_signature_missing")
        #expect(code("") == "stripe_signature_missing")
        #expect(code("v1=\(Self.newV1)") == "stripe_signature_malformed", "no t")
        #expect(code("t=\(Self.t)") == "stripe_signature_malformed", "no v1")
        #expect(code("t=abc,v1=\(Self.newV1)") == "stripe_signature_malformed")
        #expect(code("t=\(Self.t),v1=zz") == "stripe_signature_malformed")
        #expect(code("t=\(Self.t),v1=\(Self.newV1)", now: Double(Self.t) + 300) == nil)
        #expect(code("t=\(Self.t),v1=\(Self.newV1)", now: Double(Self.t) + 301) == "stripe_signature_stale")
        #expect(code("t=\(Self.t),v1=\(Self.newV1)", now: Double(Self.t) - 301) == "stripe_signature_stale")
        #expect(code("t=\(Self.t + 1),v1=\(Self.newV1)") == "stripe_signature_mismatch", "the time is signed")
        #expect(code("t=\(Self.t),v1=\(Self.newV1)", body: Array(Self.body.replacingOccurrences(of: "user-42", with: "user-43").utf8))
                == "stripe_signature_mismatch", "the body is signed")
        #expect(code("t=\(Self.t),v1=\(Self.newV1)", secrets: []) == "stripe_signature_mismatch", "no secret configured")
    }

    @Test("a signed body that is not an event is refused, naming what is missing")
    func malformedEvents() throws {
        let secret = Self.new
        func refusal(_ json: String) -> StripeWebhookError? {
            let body = Array(json.utf8)
            let header = "t=\(Self.t),v1=" + StripeTestSignature.v1(secret: secret, timestamp: Self.t, body: body)
            do { _ = try StripeWebhookVerifier(secrets: [secret]).verify(header: header, body: body, now: Double(Self.t)); return nil }
            catch { return error }
        }
        #expect(refusal("[]")?.code == .eventMalformed)
        #expect(refusal(#"{"id":"ch_1","type":"a.b","created":1,"livemode":false,"data":{"object":{}}}"#)?.message.contains("evt_") == true)
        #expect(refusal(#"{"id":"evt_1","type":"A B","created":1,"livemode":false,"data":{"object":{}}}"#)?.message.contains("type") == true)
        #expect(refusal(#"{"id":"evt_1","type":"a.b","created":-5,"livemode":false,"data":{"object":{}}}"#)?.message.contains("created") == true)
        #expect(refusal(#"{"id":"evt_1","type":"a.b","created":1,"data":{"object":{}}}"#)?.message.contains("livemode") == true)
        #expect(refusal(#"{"id":"evt_1","type":"a.b","created":1,"livemode":true,"data":{}}"#)?.message.contains("data.object") == true)
        #expect(refusal(#"{"id":"evt_1","type":"a.b","created":1,"livemode":true,"data":{"object":{"id":"x"}}}"#) == nil)
    }
}
