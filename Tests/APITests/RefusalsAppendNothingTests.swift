import API
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// A refused request appends nothing. Every refusal code a write endpoint of the
/// public surfaces gives (the spec's T, N and U codes and the catalog surface's) is
/// provoked once over HTTP, and the log's head is shown not to move.
@Suite("A refused request appends nothing", .bounded)
struct RefusalsAppendNothingTests {
    struct Case {
        var status: Int
        var code: String
        var method = "POST"
        var path: String
        var headers: [(String, String)]
        var body: String
    }

    /// The codes the table must provoke: each refusal the write endpoints can give.
    static let expected: Set<String> = [
        // POST /v1/usage/events (U)
        "unauthenticated", "forbidden", "unsupported_media_type", "malformed_json", "duplicate_key", "invalid_body",
        "invalid_usage_batch", "usage_id_conflict", "payload_too_large",
        // POST /v1/orgs/{org}/appstore/transactions (T), notifications (N)
        "cross_origin", "csrf_failed", "not_found", "app_store_transaction_invalid", "app_store_account_mismatch",
        "education_not_eligible", "app_store_plan_conflict", "billed_by_reseller",
        // POST /v1/iap/transactions (the catalog surface)
        "missing_api_key", "invalid_api_key", "api_key_revoked", "app_disabled", "invalid_request", "invalid_transaction",
        "transaction_conflict",
    ]

    @Test("every refusal code of the write endpoints, provoked: the log's head does not move")
    func everyRefusal() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let project = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let acme = try f.org("acme", admins: ["alice"])
        let staffed = try f.org("staffed", admins: ["alice"])
        try f.orgEvent(StaffPlanDecided(orgID: "staffed", plan: .premium), "staffed")
        let resold = try f.org("resold", admins: ["alice"])
        try f.orgEvent(DelegatedToReseller(orgID: "resold", resellerID: "r"), "resold")
        let appKey = try f.app("demo")
        let revokedKey = try f.issueKey("demo", mode: .test, keyID: "k_revoked")
        try f.configure("demo", AppKeyRevoked(appID: "demo", keyID: "k_revoked"))
        let offKey = try f.app("off")
        try f.configure("off", AppStatusChanged(appID: "off", enabled: false))
        try f.settle()
        #expect(try f.service.context.catalog.waitUntilCurrent(position: try f.service.store.log.headPosition()))

        // What must already be in the log for the conflicts.
        let usage = #"{"events":[{"id":"e1","project_id":"solo","meter":"api_requests","quantity":3,"occurred_at":"2026-11-10T00:00:00Z"}]}"#
        let accepted = try f.post("/v1/usage/events", key: service, raw: usage)
        #expect(accepted.status == 200)
        let synced = signer.transaction(productID: "pro_monthly")
        let json = ("Content-Type", "application/json")
        let sdk = [("X-ZeroSettle-Key", appKey), json]
        let first = try f.service.client().send(method: "POST", path: "/v1/iap/transactions", headers: sdk,
                                                body: Array(#"{"user_id":"u1","jws_representation":"\#(synced)"}"#.utf8))
        #expect(first.status == 200)

        let bearer = { (key: String) in [("Authorization", "Bearer " + key), json] }
        let app = { (org: String, person: String) in
            [f.session(person, org: org), json, ("Origin", TestService.origin), ("X-CSRF-Token", "csrf-token")]
        }
        let tx = { (token: UUID, plan: Plan) in
            #"{"signed_transaction":"\#(signer.transaction(productID: products[plan]!, appAccountToken: token, environment: "Sandbox"))"}"#
        }
        let cases: [Case] = [
            Case(status: 401, code: "unauthenticated", path: "/v1/usage/events", headers: [json], body: usage),
            Case(status: 403, code: "forbidden", path: "/v1/usage/events", headers: bearer(project), body: usage),
            Case(status: 415, code: "unsupported_media_type", path: "/v1/usage/events",
                 headers: [("Authorization", "Bearer " + service), ("Content-Type", "text/csv")], body: usage),
            Case(status: 400, code: "malformed_json", path: "/v1/usage/events", headers: bearer(service), body: "{"),
            Case(status: 400, code: "duplicate_key", path: "/v1/usage/events", headers: bearer(service), body: #"{"events":[],"events":[]}"#),
            Case(status: 400, code: "invalid_body", path: "/v1/usage/events", headers: bearer(service), body: "[]"),
            Case(status: 422, code: "invalid_usage_batch", path: "/v1/usage/events", headers: bearer(service),
                 body: usage.replacingOccurrences(of: "\"solo\"", with: "\"ghost\"")),
            Case(status: 409, code: "usage_id_conflict", path: "/v1/usage/events", headers: bearer(service),
                 body: usage.replacingOccurrences(of: "\"quantity\":3", with: "\"quantity\":4")),
            Case(status: 413, code: "payload_too_large", path: "/v1/usage/events", headers: bearer(service),
                 body: String(repeating: " ", count: 2 << 20)),

            Case(status: 401, code: "unauthenticated", path: "/v1/orgs/acme/appstore/transactions", headers: [json], body: tx(acme, .plus)),
            Case(status: 403, code: "cross_origin", path: "/v1/orgs/acme/appstore/transactions",
                 headers: [f.session("alice", org: "acme"), json, ("Origin", "https://evil.test"), ("X-CSRF-Token", "csrf-token")],
                 body: tx(acme, .plus)),
            Case(status: 403, code: "csrf_failed", path: "/v1/orgs/acme/appstore/transactions",
                 headers: [f.session("alice", org: "acme"), json, ("Origin", TestService.origin), ("X-CSRF-Token", "wrong")],
                 body: tx(acme, .plus)),
            Case(status: 404, code: "not_found", path: "/v1/orgs/elsewhere/appstore/transactions", headers: app("acme", "alice"),
                 body: tx(acme, .plus)),
            // Staff may see an organization's offer, not buy for it.
            Case(status: 403, code: "forbidden", path: "/v1/orgs/acme/appstore/transactions",
                 headers: [f.session("sam", org: nil, staff: true), json, ("Origin", TestService.origin), ("X-CSRF-Token", "csrf-token")],
                 body: tx(acme, .plus)),
            Case(status: 422, code: "app_store_transaction_invalid", path: "/v1/orgs/acme/appstore/transactions",
                 headers: app("acme", "alice"), body: #"{"signed_transaction":"x.y.z"}"#),
            Case(status: 409, code: "app_store_account_mismatch", path: "/v1/orgs/acme/appstore/transactions",
                 headers: app("acme", "alice"), body: tx(UUID(), .plus)),
            Case(status: 403, code: "education_not_eligible", path: "/v1/orgs/acme/appstore/transactions",
                 headers: app("acme", "alice"), body: tx(acme, .education)),
            Case(status: 409, code: "app_store_plan_conflict", path: "/v1/orgs/staffed/appstore/transactions",
                 headers: app("staffed", "alice"), body: tx(staffed, .plus)),
            Case(status: 409, code: "billed_by_reseller", path: "/v1/orgs/resold/appstore/transactions",
                 headers: app("resold", "alice"), body: tx(resold, .plus)),
            Case(status: 422, code: "app_store_transaction_invalid", path: "/v1/appstore/notifications/sandbox", headers: [json],
                 body: #"{"signedPayload":"nope"}"#),
            Case(status: 422, code: "app_store_transaction_invalid", path: "/v1/appstore/notifications/production", headers: [json],
                 body: #"{"signedPayload":"\#(signer.notification(type: "DID_RENEW", transaction: signer.transaction(appAccountToken: acme)))"}"#),
            Case(status: 400, code: "invalid_body", path: "/v1/appstore/notifications/sandbox", headers: [json], body: "{}"),

            Case(status: 401, code: "missing_api_key", path: "/v1/iap/transactions", headers: [json], body: "{}"),
            Case(status: 401, code: "invalid_api_key", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", "zs_pk_test_nope"), json],
                 body: "{}"),
            Case(status: 403, code: "api_key_revoked", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", revokedKey), json],
                 body: #"{"user_id":"u1","jws_representation":"\#(signer.transaction(productID: "pro_monthly"))"}"#),
            Case(status: 403, code: "app_disabled", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", offKey), json],
                 body: #"{"user_id":"u1","jws_representation":"\#(signer.transaction(productID: "pro_monthly"))"}"#),
            Case(status: 400, code: "invalid_body", path: "/v1/iap/transactions", headers: sdk, body: #"{"user_id":7}"#),
            Case(status: 400, code: "invalid_request", path: "/v1/iap/transactions", headers: sdk,
                 body: #"{"user_id":"tab\there","jws_representation":"\#(signer.transaction(productID: "pro_monthly"))"}"#),
            Case(status: 422, code: "invalid_transaction", path: "/v1/iap/transactions", headers: sdk,
                 body: #"{"user_id":"u1","jws_representation":"x"}"#),
            Case(status: 409, code: "transaction_conflict", path: "/v1/iap/transactions", headers: sdk,
                 body: #"{"user_id":"u2","jws_representation":"\#(synced)"}"#),
            Case(status: 400, code: "duplicate_key", path: "/v1/iap/transactions", headers: sdk, body: #"{"user_id":"a","user_id":"b"}"#),
            Case(status: 413, code: "payload_too_large", path: "/v1/iap/transactions", headers: sdk, body: String(repeating: " ", count: 2 << 20)),
        ]

        var provoked = Set<String>()
        for c in cases {
            let head = try f.service.store.log.headPosition()
            let r = try f.service.client().send(method: c.method, path: c.path, headers: c.headers, body: Array(c.body.utf8))
            let body = try? JSONValue.parse(r.body)
            #expect(r.status == c.status && body?["code"]?.stringValue == c.code,
                    "\(c.path) expected \(c.status) \(c.code): \(r.status) \(String(decoding: r.body.prefix(300), as: UTF8.self))")
            #expect(try f.service.store.log.headPosition() == head, "\(c.code) on \(c.path) appended")
            provoked.insert(c.code)
        }
        #expect(Self.expected.subtracting(provoked).isEmpty, "not provoked: \(Self.expected.subtracting(provoked).sorted())")
    }

    @Test("N: past the notification rate of payloads that do not verify, 429 rate_limited with Retry-After, and nothing appended")
    func rateLimitedNotifications() throws {
        let f = try BillingFixture(notificationsPerSecond: 0.5)
        defer { f.shutdown() }
        let token = try f.org("acme")
        // A payload that Apple did not sign: another authority's key, so it parses and fails.
        let forged = TestAppStoreSigner(authority: TestCertificateAuthority(name: "Not Apple")).notification(type: "DID_RENEW", transaction: signer.transaction(appAccountToken: token))
        var limited: (status: Int, body: JSONValue, headers: HTTPHeaders)?
        for _ in 0..<20 where limited == nil {
            let head = try f.service.store.log.headPosition()
            let r = try f.notify(forged)
            #expect(try f.service.store.log.headPosition() == head)
            if r.status == 429 { limited = r }
        }
        let r = try #require(limited, "twenty forged notifications at once stayed under 0.5 a second")
        #expect(r.body["code"] == "rate_limited")
        #expect(r.headers["Retry-After"].flatMap(Int.init) ?? 0 >= 1)
    }
}
