import API
import AppStore
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Projections
import TestSupport
import Testing
import WebhookSigning
import Workers

/// The OpenAPI document the service serves is the whole truth. Every
/// route is driven with good and bad requests, and every answer (status, content type,
/// body, headers) is checked against `/openapi.json` as served.
@Suite("The served OpenAPI document is the truth", .bounded)
struct OpenAPITruthTests {
    struct Call {
        var method: String
        var path: String
        var headers: [(String, String)] = []
        var body: String? = nil
        var expected: Int
    }

    /// The declared pattern a concrete path answers to (`/v1/projects/{id}/balance`).
    static func pattern(of path: String, in document: JSONValue) -> String? {
        let segments = path.split(separator: "?")[0].split(separator: "/", omittingEmptySubsequences: false)
        let patterns = document["paths"]?.objectValue?.keys.sorted() ?? []
        return patterns.filter { pattern in
            let p = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return p.count == segments.count && zip(p, segments).allSatisfy { $0 == $1 || ($0.hasPrefix("{") && $0.hasSuffix("}")) }
        }.min { a, b in a.filter { $0 == "{" }.count < b.filter { $0 == "{" }.count }
    }

    /// What is wrong with `response` as an answer to `call`, by the document.
    static func violations(_ call: Call, status: Int, headers: HTTPHeaders, body: [UInt8], document: JSONValue,
                           validator: OpenAPISchemaValidator) -> [String] {
        guard let pattern = pattern(of: call.path, in: document),
              let operation = document["paths"]?[pattern]?[call.method.lowercased()] else {
            return ["\(call.method) \(call.path) is not in the document"]
        }
        guard let declared = operation["responses"]?[String(status)] else {
            return ["\(call.method) \(pattern) answered \(status), which it does not declare"]
        }
        var problems: [String] = []
        for name in declared["headers"]?.objectValue?.keys.sorted() ?? [] where headers[name] == nil {
            problems.append("\(status) of \(call.method) \(pattern) lacks its declared header \(name)")
        }
        // The values the docs promise (docs/security.md, "Headers"), not only the names.
        if headers["X-Content-Type-Options"] != "nosniff" {
            problems.append("\(status) of \(call.method) \(pattern) has X-Content-Type-Options \(headers["X-Content-Type-Options"] ?? "absent")")
        }
        if status >= 400, !(headers["Cache-Control"]?.contains("no-store") ?? false) {
            problems.append("\(status) of \(call.method) \(pattern) has Cache-Control \(headers["Cache-Control"] ?? "absent")")
        }
        let type = headers["Content-Type"].map { String($0.split(separator: ";")[0]).trimmingCharacters(in: .whitespaces) }
        let contents = declared["content"]?.objectValue ?? [:]
        guard let type, let (_, content) = contents.first(where: { String($0.key.split(separator: ";")[0]) == type }) else {
            return problems + ["\(status) of \(call.method) \(pattern) is \(type ?? "untyped"), declared: \(contents.keys.sorted())"]
        }
        if type.hasSuffix("json"), let schema = content["schema"] {
            guard let value = try? JSONValue.parse(body) else { return problems + ["\(status) of \(call.method) \(pattern) is not JSON"] }
            problems += validator.validate(value, against: schema).map { "\(status) of \(call.method) \(pattern): \($0)" }
        }
        return problems
    }

    @Test("every route, good and bad requests: each answer is declared, with its content and headers")
    func everyRouteEveryAnswer() throws {
        let f = try BillingFixture(offerSigners: [try PromotionalOfferSigner(bundleID: "ai.screenrig.app", keyID: "OFFER12345", key: AppStoreSigningKey())],
                                   stripeSecrets: ["demo": [BillingFixture.stripeSecret]])
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("solo")
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        let projectKey = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let soloKey = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let serviceKey = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let token = try f.org("screenrig", admins: ["alice"])
        let appKey = try f.app("demo")
        try f.configure("demo", ProductConfigured(appID: "demo", product: SampleCatalog.monthly))
        // An app whose bundle ID has no promotional offer key.
        let unsignedAppKey = try f.app("unsigned", bundleID: "com.example.unsigned")
        try f.configure("unsigned", ProductConfigured(appID: "unsigned", product: SampleCatalog.monthly))
        let auditorKey = try f.key(for: KeyPrincipal(kind: .auditor, id: "auditor"))
        try f.settle()
        #expect(try f.service.context.catalog.waitUntilCurrent(position: try f.service.store.log.headPosition()))
        // A signed checkpoint of the log, held by the tree, for the transparency routes.
        let checkpointer = Checkpointer(configuration: .init(key: Ed25519SigningKey(), origin: "test", now: f.service.clock.read),
                                        store: f.service.store, connections: f.service.context.connections, isActive: { true }, log: { _, _, _ in })
        let model = MerkleReadModel(connections: f.service.context.connections)
        var checkpointed: Int64?
        #expect(Poll.until(timeout: 20) {
            if checkpointed == nil { checkpointed = try? checkpointer.tick() }
            return checkpointed.map { position in ((try? model.treeSize()) ?? nil).map { $0 >= position } ?? false } ?? false
        })
        let size = try #require(try model.latestCheckpoint()?.checkpoint.size)

        let document = try JSONValue.parse(try f.service.get("/openapi.json").body)
        let validator = OpenAPISchemaValidator(document: document)
        let bearer = { (key: String) in ("Authorization", "Bearer " + key) }
        let json = ("Content-Type", "application/json")
        let session = f.session("alice", org: "screenrig")
        let app = [session, json, ("Origin", TestService.origin), ("X-CSRF-Token", "csrf-token")]
        let usage = #"{"events":[{"id":"e1","project_id":"solo","meter":"api_requests","quantity":3,"occurred_at":"2026-11-10T00:00:00Z"}]}"#
        let goodTransaction = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox")
        let renewal = signer.notification(type: "DID_RENEW", transaction: goodTransaction)
        let iapTransaction = signer.transaction(productID: "pro_monthly")
        let big = String(repeating: "x", count: 2 << 20)

        var calls: [Call] = [
            Call(method: "GET", path: "/healthz", expected: 200),
            Call(method: "GET", path: "/readyz", expected: 200),
            Call(method: "GET", path: "/openapi.json", expected: 200),
            Call(method: "GET", path: "/healthz", body: big, expected: 413),
            Call(method: "GET", path: "/problems", expected: 200),
            Call(method: "GET", path: "/problems/not_found", expected: 200),
            Call(method: "GET", path: "/problems/no_such_code", expected: 404),
            Call(method: "GET", path: "/problems/%zz", expected: 400),
        ]
        for (kind, id, key, stranger) in [("projects", "web", projectKey, soloKey), ("payers", "acme", payerKey, projectKey)] {
            for read in ["balance", "journal", "usage", "events"] {
                let path = "/v1/\(kind)/\(id)/\(read)"
                calls += [
                    Call(method: "GET", path: path, headers: [bearer(key)], expected: 200),
                    Call(method: "GET", path: path, expected: 401),
                    Call(method: "GET", path: path, headers: [bearer(stranger)], expected: 404),
                    Call(method: "GET", path: path + "?min_position=abc", headers: [bearer(key)], expected: 400),
                    Call(method: "GET", path: path + "?min_position=999999999", headers: [bearer(key)], expected: 400),
                    Call(method: "GET", path: path + "?min_position=1", headers: [bearer(key)], expected: 200),
                ]
            }
            calls += [
                Call(method: "GET", path: "/v1/\(kind)/\(id)/journal?limit=0", headers: [bearer(key)], expected: 400),
                Call(method: "GET", path: "/v1/\(kind)/\(id)/journal?cursor=forged", headers: [bearer(key)], expected: 400),
                Call(method: "GET", path: "/v1/\(kind)/\(id)/usage?month=2026-13", headers: [bearer(key)], expected: 400),
                Call(method: "GET", path: "/v1/\(kind)/\(id)/events?after=-1", headers: [bearer(key)], expected: 400),
                Call(method: "GET", path: "/v1/\(kind)/\(id)/events?limit=0", headers: [bearer(key)], expected: 400),
            ]
        }
        calls += [
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), json], body: usage, expected: 200),
            Call(method: "POST", path: "/v1/usage/events", headers: [json], body: usage, expected: 401),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(soloKey), json], body: usage, expected: 403),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), ("Content-Type", "text/csv")], body: usage, expected: 415),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), json], body: "{", expected: 400),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), json], body: #"{"events":[],"events":[]}"#, expected: 400),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), json],
                 body: usage.replacingOccurrences(of: "\"solo\"", with: "\"ghost\""), expected: 422),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), json],
                 body: usage.replacingOccurrences(of: "\"quantity\":3", with: "\"quantity\":4"), expected: 409),
            Call(method: "POST", path: "/v1/usage/events", headers: [bearer(serviceKey), json], body: big, expected: 413),
            Call(method: "GET", path: "/v1/orgs/screenrig/appstore/offer", headers: [session], expected: 200),
            Call(method: "GET", path: "/v1/orgs/screenrig/appstore/offer", expected: 401),
            Call(method: "GET", path: "/v1/orgs/elsewhere/appstore/offer", headers: [session], expected: 404),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions", headers: app,
                 body: #"{"signed_transaction":"\#(goodTransaction)"}"#, expected: 200),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions", headers: app, body: #"{"signed_transaction":"x.y.z"}"#, expected: 422),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions", headers: app,
                 body: #"{"signed_transaction":"\#(signer.transaction(productID: products[.plus]!, appAccountToken: UUID(), environment: "Sandbox"))"}"#,
                 expected: 409),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions", headers: [session, json, ("Origin", "https://evil.test")],
                 body: #"{"signed_transaction":"x"}"#, expected: 403),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions", headers: [json], body: "{}", expected: 401),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions", headers: app, body: "[]", expected: 400),
            Call(method: "POST", path: "/v1/orgs/screenrig/appstore/transactions",
                 headers: [session, ("Content-Type", "text/plain"), ("Origin", TestService.origin), ("X-CSRF-Token", "csrf-token")],
                 body: "{}", expected: 415),
            Call(method: "POST", path: "/v1/appstore/notifications/sandbox", headers: [json], body: #"{"signedPayload":"\#(renewal)"}"#, expected: 200),
            Call(method: "POST", path: "/v1/appstore/notifications/production", headers: [json], body: #"{"signedPayload":"\#(renewal)"}"#, expected: 422),
            Call(method: "POST", path: "/v1/appstore/notifications/sandbox", headers: [json], body: #"{"signedPayload":"nope"}"#, expected: 422),
            Call(method: "POST", path: "/v1/appstore/notifications/sandbox", headers: [json], body: "{}", expected: 400),
            Call(method: "GET", path: "/v1/iap/products", headers: [("X-ZeroSettle-Key", appKey)], expected: 200),
            Call(method: "GET", path: "/v1/iap/products?user_id=u1", headers: [("X-ZeroSettle-Key", appKey)], expected: 200),
            Call(method: "GET", path: "/v1/iap/products", expected: 401),
            Call(method: "GET", path: "/v1/iap/products", headers: [("X-ZeroSettle-Key", "zs_pk_test_unknown")], expected: 401),
            Call(method: "GET", path: "/v1/iap/products?user_id=" + String(repeating: "u", count: 300), headers: [("X-ZeroSettle-Key", appKey)],
                 expected: 400),
            Call(method: "POST", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", appKey), json],
                 body: #"{"user_id":"u1","jws_representation":"\#(iapTransaction)"}"#, expected: 200),
            Call(method: "POST", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", appKey), json],
                 body: #"{"user_id":"u1","jws_representation":"x"}"#, expected: 422),
            Call(method: "POST", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", appKey), json], body: "[1]", expected: 400),
            Call(method: "POST", path: "/v1/iap/transactions", headers: [json], body: "{}", expected: 401),
            Call(method: "POST", path: "/v1/iap/transactions", headers: [("X-ZeroSettle-Key", appKey), ("Content-Type", "text/plain")],
                 body: "{}", expected: 415),
        ]

        let offer = #"{"product_id":"pro.monthly","offer_id":"win_back"}"#
        let offerPath = "/v1/appstore/offers/signature"
        calls += [
            Call(method: "POST", path: offerPath, headers: [("X-ZeroSettle-Key", appKey), json], body: offer, expected: 200),
            Call(method: "POST", path: offerPath, headers: [json], body: offer, expected: 401),
            Call(method: "POST", path: offerPath, headers: [("X-ZeroSettle-Key", appKey), json],
                 body: #"{"product_id":"pro.monthly","offer_id":"win_back","nonce":"x"}"#, expected: 400),
            Call(method: "POST", path: offerPath, headers: [("X-ZeroSettle-Key", appKey), json],
                 body: #"{"product_id":"pro.lifetime","offer_id":"win_back"}"#, expected: 422),
            Call(method: "POST", path: offerPath, headers: [("X-ZeroSettle-Key", appKey), ("Content-Type", "text/plain")], body: offer, expected: 415),
            Call(method: "POST", path: offerPath, headers: [("X-ZeroSettle-Key", unsignedAppKey), json], body: offer, expected: 503),
        ]
        calls += [
            Call(method: "GET", path: "/v1/log/checkpoints/latest", headers: [bearer(auditorKey)], expected: 200),
            Call(method: "GET", path: "/v1/log/checkpoints/latest", expected: 401),
            Call(method: "GET", path: "/v1/log/checkpoints/latest", headers: [bearer(payerKey)], expected: 403),
            Call(method: "GET", path: "/v1/log/checkpoints/1", headers: [bearer(auditorKey)], expected: 404),
            Call(method: "GET", path: "/v1/log/checkpoints/first", headers: [bearer(auditorKey)], expected: 400),
            Call(method: "GET", path: "/v1/log/proofs/inclusion?position=1&size=\(size)", headers: [bearer(auditorKey)], expected: 200),
            Call(method: "GET", path: "/v1/log/proofs/inclusion?position=1", headers: [bearer(auditorKey)], expected: 400),
            Call(method: "GET", path: "/v1/log/proofs/inclusion?position=1&size=\(size)", headers: [bearer(serviceKey)], expected: 403),
            Call(method: "GET", path: "/v1/log/proofs/consistency?from=1&to=\(size)", headers: [bearer(auditorKey)], expected: 200),
            Call(method: "GET", path: "/v1/log/proofs/consistency?from=0&to=\(size)", headers: [bearer(auditorKey)], expected: 400),
            Call(method: "GET", path: "/v1/log/proofs/consistency?from=1&to=\(size)", expected: 401),
        ]

        let stripePath = "/v1/stripe/webhooks/demo"
        let stripeEvent = #"{"id":"evt_truth","object":"event","type":"customer.created","created":1780000000,"livemode":false,"data":{"object":{"id":"cus_1","object":"customer"}}}"#
        let now = Int64(f.service.clock.now.seconds)
        let signed = WebhookSignature.value(timestamp: now, body: Array(stripeEvent.utf8), secrets: [BillingFixture.stripeSecret])
        calls += [
            Call(method: "POST", path: stripePath, headers: [json, ("Stripe-Signature", signed)], body: stripeEvent, expected: 200),
            Call(method: "POST", path: stripePath, headers: [json], body: stripeEvent, expected: 400),
            Call(method: "POST", path: "/v1/stripe/webhooks/nowhere", headers: [json, ("Stripe-Signature", signed)], body: stripeEvent, expected: 404),
            Call(method: "GET", path: "/v1/iap/entitlements?user_id=u1", headers: [("X-ZeroSettle-Key", appKey)], expected: 200),
            Call(method: "GET", path: "/v1/iap/entitlements", headers: [("X-ZeroSettle-Key", appKey)], expected: 400),
            Call(method: "GET", path: "/v1/iap/entitlements?user_id=u1", expected: 401),
        ]

        var covered = Set<String>()
        for call in calls {
            let response = try f.service.client().send(method: call.method, path: call.path, headers: call.headers,
                                                       body: call.body.map { Array($0.utf8) } ?? [])
            #expect(response.status == call.expected, "\(call.method) \(call.path): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
            let problems = Self.violations(call, status: response.status, headers: response.headers, body: response.body,
                                           document: document, validator: validator)
            #expect(problems.isEmpty, "\(problems)")
            if let pattern = Self.pattern(of: call.path, in: document) { covered.insert("\(call.method) \(pattern)") }
        }
        // Every documented operation was driven.
        var documented = Set<String>()
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in item.objectValue?.keys ?? [:].keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        #expect(documented.subtracting(covered).isEmpty, "not driven: \(documented.subtracting(covered).sorted())")
    }
}
