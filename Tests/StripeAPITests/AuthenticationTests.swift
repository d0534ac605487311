import HTTP
import LedgerJSON
import StripeAPI
import StripeStandIn
import Testing
import TestSupport

@Suite("The secret key: its shape checked, refused by Stripe as a 401, never in a message", .bounded)
struct AuthenticationTests {
    @Test("a key Stripe does not know is stripe_authentication_failed, not retried, and no message quotes it")
    func wrongKey() throws {
        let fixture = try StripeFixture()
        let wrong = "sk_test_" + "Wr0ngKeyAbcdefGhijklMnop4821"
        let error = try #require(throws: StripeAPIError.self) { try fixture.client(key: wrong).eventsPage(StripeEventsQuery()) }
        #expect(error.code == .authenticationFailed && error.code.rawValue == "stripe_authentication_failed")
        #expect(error.status == 401 && error.attempts == 1 && !error.isRetryable && fixture.recordedSleeps.isEmpty)
        // Stripe quotes a refused key masked but for its last four characters: none of it stays.
        let texts = [error.message, error.description, String(describing: error), String(reflecting: error)]
        for text in texts {
            #expect(!text.contains(wrong) && !text.contains("4821") && !text.contains("Wr0ngKey"))
        }
        #expect(error.message.contains("[redacted key]"))
        #expect(fixture.standIn.requests.map(\.status) == [401])
    }

    @Test("a key's text is checked for its shape, and what is refused is never quoted")
    func keyShape() throws {
        for good in ["sk_test_" + String(repeating: "a", count: 16), "sk_live_51Habc0123456789XYZ", "rk_test_0123456789abcdefgh",
                     "rk_live_0123456789abcdefgh", " sk_test_0123456789abcdefgh\n"] {
            #expect(throws: Never.self) { try StripeSecretKey(good) }
        }
        for bad in ["pk_test_0123456789abcdefgh", "whsec_0123456789abcdefgh", "sk_test_short", "sk_test_0123456789abc-efgh",
                    "sk_prod_0123456789abcdefgh", "", "sk_test_" + String(repeating: "a", count: 300)] {
            let error = try #require(throws: StripeAPIError.self) { try StripeSecretKey(bad) }
            #expect(error.code == .secretKeyInvalid)
            #expect(bad.count < 9 || !error.message.contains(bad.dropFirst(8).prefix(10)))
        }
        let key = try StripeSecretKey("sk_live_51HsecretSECRETsecret")
        #expect(key.livemode && !key.isRestricted)
        #expect(try StripeSecretKey("rk_test_0123456789abcdefgh").isRestricted)
        for text in ["\(key)", String(reflecting: key), "\([key])"] { #expect(!text.contains("secretSECRET")) }
        #expect("\(key)" == "sk_live_… (redacted)")
    }

    @Test("anything shaped like a key is redacted from a text, masked or not")
    func redaction() {
        #expect(StripeSecretKey.redacting("Invalid API Key provided: sk_test_********************abcd") ==
                "Invalid API Key provided: [redacted key]")
        #expect(StripeSecretKey.redacting("keys rk_live_abc123 and sk_live_XYZ, then text") == "keys [redacted key] and [redacted key], then text")
        #expect(StripeSecretKey.redacting("no key here") == "no key here")
    }

    @Test("Stripe's host gets the production policy: https to a public address only; a loopback base URL is refused under it")
    func productionPolicy() throws {
        let fixture = try StripeFixture()
        #expect(try StripeAPIConfiguration(appID: "a", secretKey: fixture.secretKey).outboundPolicy == .production)
        #expect(try StripeAPIConfiguration(appID: "a", secretKey: fixture.secretKey).baseURL == "https://api.stripe.com")
        var configuration = try StripeAPIConfiguration(appID: "a", secretKey: fixture.secretKey, baseURL: fixture.standIn.baseURL + "/")
        #expect(configuration.outboundPolicy == .development && configuration.baseURL == fixture.standIn.baseURL)
        configuration.outboundPolicy = .production
        let error = try #require(throws: StripeAPIError.self) { try fixture.client(configuration).eventsPage(StripeEventsQuery()) }
        #expect(error.code == .refused && error.attempts == 1)
        #expect(fixture.standIn.requests.isEmpty)
    }

    @Test("an answer that is not the documented list is stripe_answer_malformed, not retried")
    func malformedAnswers() throws {
        let bodies = [#"not json"#, #"[1,2]"#, #"{"object":"list","data":[{"id":"x"}],"has_more":false}"#,
                      #"{"object":"list","data":[],"has_more":"no"}"#, #"{"object":"list","data":[],"has_more":true}"#,
                      #"{"object":"customer"}"#]
        for body in bodies {
            let api = try LoopbackServer { _ in HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8)) }
            let fixture = try StripeFixture()
            let configuration = try StripeAPIConfiguration(appID: "a", secretKey: fixture.secretKey, baseURL: api.baseURL)
            let error = try #require(throws: StripeAPIError.self) { try fixture.client(configuration).eventsPage(StripeEventsQuery()) }
            #expect(error.code == .answerMalformed, "\(body)")
            #expect(api.received.count == 1)
            #expect(api.received[0].headers["Authorization"] == "Bearer \(fixture.secretKey)")
        }
    }

    @Test("each status has its stable code: 403 permission, 404 invalid request, 402 unexpected")
    func statusCodes() throws {
        for (status, code) in [(403, StripeAPIError.Code.permissionDenied), (404, .invalidRequest), (402, .unexpectedStatus)] {
            let api = try LoopbackServer { _ in
                .json(["error": ["type": "invalid_request_error", "message": "nope"]] as JSONValue, status: status)
            }
            let fixture = try StripeFixture()
            let configuration = try StripeAPIConfiguration(appID: "a", secretKey: fixture.secretKey, baseURL: api.baseURL)
            let error = try #require(throws: StripeAPIError.self) { try fixture.client(configuration).eventsPage(StripeEventsQuery()) }
            #expect(error.code == code && error.status == status && error.message == "nope" && error.attempts == 1)
        }
    }
}
