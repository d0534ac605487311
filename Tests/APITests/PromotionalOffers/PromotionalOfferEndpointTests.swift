import API
import AppStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// `POST /v1/appstore/offers/signature` through the real HTTP server: an app's publishable
/// key, its catalog and the promotional offer key of its bundle ID; every answer checked
/// as a client sees it, and the signatures by OpenSSL's own verification.
@Suite("Promotional offer signatures over HTTP", .bounded)
struct PromotionalOfferEndpointTests {
    static let path = "/v1/appstore/offers/signature"
    static let now: Int64 = 1_763_208_000_000  // 2025-11-15T12:00:00Z

    /// The demo app with the sample catalog and an offer key, and another app (its own
    /// bundle ID and subscription) with one; a third app whose bundle ID has none.
    struct Setup {
        var f: BillingFixture
        var key: String
        var otherKey: String
        var unsignedKey: String
        var publicKey: [UInt8]
    }

    static let otherMonthly = CatalogProduct(id: "other.monthly", displayName: "Other", description: "Another app's",
                                             type: .autoRenewableSubscription, subscriptionGroupID: 7, subscriptionPeriod: "P1M")

    func setup() throws -> Setup {
        let signingKey = AppStoreSigningKey()
        let signers = [try PromotionalOfferSigner(bundleID: "ai.screenrig.app", keyID: "OFFER12345", key: signingKey),
                       try PromotionalOfferSigner(bundleID: "com.example.other", keyID: "OTHER12345", key: AppStoreSigningKey())]
        let f = try BillingFixture(offerSigners: signers)
        f.service.clock.set("2025-11-15T12:00:00Z")
        let key = try f.app("demo")
        try SampleCatalog.install(f, app: "demo")
        let otherKey = try f.app("other", bundleID: "com.example.other")
        try f.configure("other", ProductConfigured(appID: "other", product: Self.otherMonthly))
        let unsignedKey = try f.app("unsigned", bundleID: "com.example.unsigned")
        try f.configure("unsigned", ProductConfigured(appID: "unsigned", product: SampleCatalog.monthly))
        #expect(try f.service.context.catalog.waitUntilCurrent(position: try f.service.store.log.headPosition()))
        return Setup(f: f, key: key, otherKey: otherKey, unsignedKey: unsignedKey,
                     publicKey: try #require(ReferenceECDSA.publicKey(ofPKCS8: signingKey.pkcs8DER)))
    }

    /// The POST with `key` (none when nil) and `body` as written.
    func sign(_ s: Setup, key: String?, _ body: String) throws -> (status: Int, headers: HTTPHeaders, body: JSONValue) {
        var headers = [("Content-Type", "application/json")]
        if let key { headers.append(("X-ZeroSettle-Key", key)) }
        let r = try s.f.service.client().send(method: "POST", path: Self.path, headers: headers, body: Array(body.utf8))
        return (r.status, r.headers, try JSONValue.parse(r.body))
    }

    /// A refusal in problem details with `status` and `code`.
    func expectProblem(_ answer: (status: Int, headers: HTTPHeaders, body: JSONValue), _ status: Int, _ code: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == status && answer.body["code"] == .string(code), "\(answer.status) \(answer.body)", sourceLocation: sourceLocation)
        #expect(answer.headers["Content-Type"]?.hasPrefix("application/problem+json") == true, sourceLocation: sourceLocation)
        #expect(answer.body["status"] == .integer(Int64(status)) && answer.body["detail"]?.stringValue?.isEmpty == false
                && answer.body["type"]?.stringValue != nil && answer.body["title"]?.stringValue != nil, sourceLocation: sourceLocation)
        #expect(answer.headers["Cache-Control"]?.contains("no-store") == true, sourceLocation: sourceLocation)
    }

    @Test("a subscription's offer is signed with the app's key: StoreKit's values, a new nonce, the server's time, a signature over Apple's payload; nothing recorded")
    func signsTheAppsSubscriptionOffer() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        let head = try s.f.service.store.log.headPosition()
        let answer = try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"win_back_50","app_account_token":"5C0D6E4E-9A1B-4C2D-8E3F-A0B1C2D3E4F5"}"#)
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.headers["Cache-Control"] == "private, no-store")
        let body = answer.body
        #expect(body["key_id"] == "OFFER12345" && body["product_id"] == "pro.monthly" && body["offer_id"] == "win_back_50")
        #expect(body["app_account_token"] == "5c0d6e4e-9a1b-4c2d-8e3f-a0b1c2d3e4f5")
        #expect(body["timestamp"] == .integer(Self.now))
        let nonce = try #require(body["nonce"]?.stringValue)
        #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased() && Array(nonce.utf8)[14] == UInt8(ascii: "4"), "a lowercase UUID v4")
        let der = try #require(body["signature"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map(Array.init))
        #expect(ReferenceECDSA.integers(ofDER: der) != nil)
        // Apple's payload, written out here from the answer's values.
        let payload = ["ai.screenrig.app", "OFFER12345", "pro.monthly", "win_back_50", "5c0d6e4e-9a1b-4c2d-8e3f-a0b1c2d3e4f5", nonce,
                       String(Self.now)].joined(separator: "\u{2063}")
        #expect(ReferenceECDSA.verify(derSignature: der, of: Array(payload.utf8), publicKey: s.publicKey))
        // A second request: another nonce.
        let again = try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"win_back_50"}"#)
        #expect(again.status == 200 && again.body["nonce"] != body["nonce"] && again.body["app_account_token"] == "")
        #expect(try s.f.service.store.log.headPosition() == head, "a signature is not an event")
    }

    @Test("the app's own UUID nonce and a timestamp within 300 seconds are signed as given")
    func appsOwnNonceAndTimestamp() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        for timestamp in [Self.now - 300_000, Self.now + 300_000, Self.now + 1] {
            let answer = try sign(s, key: s.key, #"{"product_id":"pro.yearly","offer_id":"o.1","app_account_token":"","nonce":"D1E2F3A4-B5C6-4D7E-8F90-A1B2C3D4E5F6","timestamp":\#(timestamp)}"#)
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.body["nonce"] == "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6" && answer.body["timestamp"] == .integer(timestamp))
            let der = try #require(answer.body["signature"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map(Array.init))
            let payload = "ai.screenrig.app\u{2063}OFFER12345\u{2063}pro.yearly\u{2063}o.1\u{2063}\u{2063}d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6\u{2063}\(timestamp)"
            #expect(ReferenceECDSA.verify(derSignature: der, of: Array(payload.utf8), publicKey: s.publicKey))
        }
    }

    @Test("no key, an unknown one, a revoked one or a disabled app: 401 or 403 with the catalog's codes, as problems")
    func keys() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        let body = #"{"product_id":"pro.monthly","offer_id":"o"}"#
        expectProblem(try sign(s, key: nil, body), 401, "missing_api_key")
        expectProblem(try sign(s, key: "zs_pk_test_" + String(repeating: "0", count: 32), body), 401, "invalid_api_key")
        expectProblem(try sign(s, key: "sk_live_whatever", body), 401, "invalid_api_key")
        let live = try s.f.issueKey("demo", mode: .live, keyID: "k_live")
        #expect(try s.f.service.context.catalog.waitUntilCurrent(position: try s.f.service.store.log.headPosition()))
        #expect(try sign(s, key: live, body).status == 200, "a live key signs as a test key does")
        try s.f.configure("demo", AppKeyRevoked(appID: "demo", keyID: "k_live"))
        #expect(try s.f.service.context.catalog.waitUntilCurrent(position: try s.f.service.store.log.headPosition()))
        expectProblem(try sign(s, key: live, body), 403, "api_key_revoked")
        try s.f.configure("demo", AppStatusChanged(appID: "demo", enabled: false))
        #expect(try s.f.service.context.catalog.waitUntilCurrent(position: try s.f.service.store.log.headPosition()))
        expectProblem(try sign(s, key: s.key, body), 403, "app_disabled")
    }

    @Test("a product not in the app's catalog, another app's subscription included, is 422 unknown_product; a product that is no auto-renewable subscription 422 not_a_subscription")
    func onlyTheAppsSubscriptions() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.weekly","offer_id":"o"}"#), 422, "unknown_product")
        // Another app's subscription: unknown to this app, and named as unknown, not as another's.
        let theirs = try sign(s, key: s.key, #"{"product_id":"other.monthly","offer_id":"o"}"#)
        expectProblem(theirs, 422, "unknown_product")
        #expect(theirs.body["detail"]?.stringValue?.contains("com.example.other") == false)
        #expect(try sign(s, key: s.otherKey, #"{"product_id":"other.monthly","offer_id":"o"}"#).body["key_id"] == "OTHER12345",
                "the other app signs its own, with its own key")
        expectProblem(try sign(s, key: s.otherKey, #"{"product_id":"pro.monthly","offer_id":"o"}"#), 422, "unknown_product")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.lifetime","offer_id":"o"}"#), 422, "not_a_subscription")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"coins.100","offer_id":"o"}"#), 422, "not_a_subscription")
    }

    @Test("a nonce that is not a UUID is 400 invalid_nonce")
    func badNonce() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        for nonce in [#""not-a-uuid""#, #""""#, #""d1e2f3a4b5c64d7e8f90a1b2c3d4e5f6""#, "42", "true", #"["d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6"]"#] {
            expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","nonce":\#(nonce)}"#), 400, "invalid_nonce")
        }
    }

    @Test("a timestamp that is not whole Unix milliseconds is 400 invalid_timestamp; one more than 300 seconds from the clock 422 timestamp_out_of_window")
    func badTimestamp() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        for timestamp in ["-1", #""1763208000000""#, "true", "{}"] {
            expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","timestamp":\#(timestamp)}"#), 400, "invalid_timestamp")
        }
        // A fraction is not JSON the service reads as a number at all.
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","timestamp":1763208000000.5}"#), 400, "malformed_json")
        for timestamp in [Self.now + 300_001, Self.now - 300_001, Self.now / 1000, 0, Int64.max] {
            let answer = try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","timestamp":\#(timestamp)}"#)
            expectProblem(answer, 422, "timestamp_out_of_window")
        }
    }

    @Test("the other fields: a missing product or offer, an identifier the payload cannot carry, a token that is not a UUID, a body that is not an object")
    func otherFields() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        expectProblem(try sign(s, key: s.key, #"{"offer_id":"o"}"#), 400, "invalid_body")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly"}"#), 400, "invalid_body")
        expectProblem(try sign(s, key: s.key, "[]"), 400, "invalid_body")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"win\u2063back"}"#), 400, "invalid_offer_id")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"win back"}"#), 400, "invalid_offer_id")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":""}"#), 400, "invalid_offer_id")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"\#(String(repeating: "o", count: 201))"}"#), 400, "invalid_offer_id")
        expectProblem(try sign(s, key: s.key, #"{"product_id":7,"offer_id":"o"}"#), 400, "invalid_product_id")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","app_account_token":"alice"}"#), 400, "invalid_app_account_token")
        expectProblem(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","app_account_token":5}"#), 400, "invalid_app_account_token")
        #expect(try sign(s, key: s.key, #"{"product_id":"pro.monthly","offer_id":"o","app_account_token":null,"nonce":null,"timestamp":null}"#).status == 200)
    }

    @Test("an app whose bundle ID has no offer key configured is 503 offer_key_not_configured, naming the setting, with Retry-After")
    func noOfferKeyConfigured() throws {
        let s = try setup()
        defer { s.f.shutdown() }
        let answer = try sign(s, key: s.unsignedKey, #"{"product_id":"pro.monthly","offer_id":"o"}"#)
        expectProblem(answer, 503, "offer_key_not_configured")
        #expect(answer.headers["Retry-After"] != nil)
        #expect(answer.body["detail"]?.stringValue?.contains("LEDGER_APPSTORE_OFFER_KEYS") == true
                && answer.body["detail"]?.stringValue?.contains("com.example.unsigned") == true)
        // The request's own mistakes come first: they are the client's to fix.
        expectProblem(try sign(s, key: s.unsignedKey, #"{"product_id":"pro.lifetime","offer_id":"o"}"#), 422, "unknown_product")
    }
}
