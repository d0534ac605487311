import API
@testable import BenchHTTP
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// A fuzz-style property test for each request decoder. Thousands of bodies
/// derived from valid ones (value-level mutations that reach the decoder and the decider,
/// byte-level ones that try the parser, App Store payloads mutated and signed again so
/// that the verified part is tried too) go to the real server. For every one: never a
/// 5xx; a refusal is in the surface's own error shape and appended nothing; and at the
/// end every projection has folded everything that was accepted.
///
/// Replay one case with LEDGER_TEST_CASE_SEED set to the seed a failure prints.
@Suite("Request decoders under generated bodies", .bounded)
struct DecoderFuzzTests {
    /// Cases per decoder: thousands in all, bounded so the suite stays quick.
    static let cases = 1_000

    /// What one generated request is judged by, and the census of the answers (so that a
    /// generator that only ever reaches one refusal shows).
    final class Exchange {
        let fixture: BillingFixture
        let client: HTTPClient
        private(set) var census: [String: Int] = [:]

        init(fixture: BillingFixture, client: HTTPClient) {
            self.fixture = fixture
            self.client = client
        }

        /// How many answers had `status` (with problem or error `code`, when given).
        func count(_ status: Int, _ code: String? = nil) -> Int {
            census.filter { key, _ in
                code.map { key == "\(status) \($0)" } ?? (key == String(status) || key.hasPrefix("\(status) "))
            }.values.reduce(0, +)
        }

        /// The generators reach what they are meant to: accepted requests and each kind
        /// of refusal, each at least so many times (not checked when one case is replayed).
        func expectReached(_ expected: [(Int, String?, Int)]) {
            guard !Property.isReplaying else { return }
            for (status, code, minimum) in expected {
                #expect(count(status, code) >= minimum, "\(status) \(code ?? ""): \(census.sorted { $0.key < $1.key })")
            }
        }

        /// Sends the request and checks the answer: below 500, a refusal in the surface's
        /// shape with the log's head where it was.
        func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8] = [], seed: UInt64) throws {
            let head = try fixture.service.store.log.headPosition()
            let r = try client.send(method: method, path: path, headers: headers, body: body)
            let shown = String(decoding: r.body.prefix(300), as: UTF8.self)
            let replay = "LEDGER_TEST_CASE_SEED=\(seed.hex): \(method) \(path.prefix(200)) \(String(decoding: body.prefix(300), as: UTF8.self))"
            #expect(r.status < 500, "\(r.status) \(shown) for \(replay)")
            #expect(r.headers["X-Request-Id"] != nil, "no X-Request-Id for \(replay)")
            let error = try? JSONValue.parse(r.body)
            let code = error?["code"]?.stringValue
            census[code.map { "\(r.status) \($0)" } ?? String(r.status), default: 0] += 1
            guard r.status >= 400 else { return }
            // A read appends nothing itself (catalog impressions are flushed later, apart).
            let after = method == "GET" ? head : try fixture.service.store.log.headPosition()
            #expect(after == head, "refused with \(r.status) \(shown), yet appended: \(replay)")
            if path.hasPrefix("/v1/iap/") {
                #expect(error?["error"]?.stringValue != nil, "not the seed's Error: \(shown) for \(replay)")
            } else {
                #expect(r.headers["Content-Type"] == "application/problem+json", "\(r.headers["Content-Type"] ?? "untyped") for \(replay)")
                #expect(error?["code"]?.stringValue != nil, "no problem code: \(shown) for \(replay)")
            }
        }
    }

    /// A fixture whose notifications are not rate-limited (the limit has its own tests).
    static func fixture() throws -> BillingFixture {
        let f = try BillingFixture(notificationsPerSecond: 1_000_000)
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("solo")
        return f
    }

    /// Every projection reaches the head: none stopped on what was accepted.
    static func everythingFolds(_ f: BillingFixture) throws {
        let head = try f.service.store.log.headPosition()
        for projection in AllProjections.all {
            #expect(try ProjectionWait.until(projection, reaches: head, connections: f.service.context.connections, timeout: 60), "\(projection.name)")
        }
    }

    /// `valid`, or (when `mutated`) a value-level or byte-level mutation of it.
    static func variant(of valid: JSONValue, mutated: Bool, _ rng: inout SeededRandom) -> [UInt8] {
        guard mutated else { return valid.compactBytes() }
        return rng.chance(0.35) ? JSONFuzzer.mangle(valid, &rng) : JSONFuzzer.mutate(valid, &rng).compactBytes()
    }

    /// A signed App Store payload: valid, or (when `mutated`) mutated and signed again,
    /// its text mangled and signed, its header mutated, or the JWS text itself tweaked.
    static func signed(_ payload: JSONValue, mutated: Bool, _ rng: inout SeededRandom) -> String {
        guard mutated else { return signer.sign(payload: payload) }
        switch rng.int(0...7) {
        case 0, 1: return signer.sign(headerText: signer.header.compactText(), payloadText: String(decoding: JSONFuzzer.mangle(payload, &rng), as: UTF8.self))
        case 2: return signer.sign(payload: payload, header: JSONFuzzer.mutate(signer.header, &rng))
        case 3: return JSONFuzzer.mutate(.string(signer.sign(payload: payload)), &rng).stringValue ?? "x"
        default: return signer.sign(payload: JSONFuzzer.mutate(payload, &rng))
        }
    }

    static func identifier(_ rng: inout SeededRandom) -> String { String(rng.next() % 9_000_000_000_000_000 + 1_000_000_000_000_000) }

    @Test("usage batches: never a 5xx, a refusal appends nothing, what is accepted folds")
    func usageBatches() throws {
        let f = try Self.fixture()
        defer { f.shutdown() }
        let key = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let exchange = Exchange(fixture: f, client: try f.service.client())
        let headers = [("Authorization", "Bearer " + key), ("Content-Type", "application/json")]
        try Property.check("fuzz usage batches", count: Self.cases) { rng, seed in
            let events: [JSONValue] = (0..<rng.int(1...4)).map { _ in
                ["id": .string("u-" + Self.identifier(&rng)), "project_id": .string(rng.pick(["solo", "web"])),
                 "meter": .string(rng.pick(Meter.allCases).rawValue), "quantity": .integer(Int64(rng.int(0...1_000_000))),
                 "occurred_at": .string("2026-11-\(10 + rng.int(0...4))T0\(rng.int(0...9)):00:00Z")]
            }
            let body = Self.variant(of: ["events": .array(events)], mutated: rng.chance(0.8), &rng)
            try exchange.send("POST", "/v1/usage/events", headers: headers, body: body, seed: seed)
        }
        try Self.everythingFolds(f)
        exchange.expectReached([(200, nil, 50), (400, "malformed_json", 10), (400, "duplicate_key", 5), (422, "invalid_usage_batch", 50)])
    }

    @Test("App Store transactions from the app: never a 5xx, a refusal appends nothing, what is accepted folds")
    func appStoreTransactions() throws {
        let f = try Self.fixture()
        defer { f.shutdown() }
        let token = try f.org("screenrig", admins: ["alice"])
        let exchange = Exchange(fixture: f, client: try f.service.client())
        let headers = [f.session("alice", org: "screenrig"), ("Content-Type", "application/json"), ("Origin", TestService.origin),
                       ("X-CSRF-Token", "csrf-token")]
        try Property.check("fuzz app store transactions", count: Self.cases) { rng, seed in
            let id = Self.identifier(&rng)
            let payload = signer.transactionPayload(productID: rng.pick(products.values.sorted() + ["ai.screenrig.unknown"]),
                                                    appAccountToken: rng.chance(0.9) ? token : UUID(), transactionID: id,
                                                    originalTransactionID: rng.chance(0.5) ? id : Self.identifier(&rng))
            // One layer at most is mutated: the body, or the signed payload.
            let layer = rng.int(0...2)
            let body: JSONValue = ["signed_transaction": .string(Self.signed(payload, mutated: layer == 2, &rng))]
            try exchange.send("POST", "/v1/orgs/screenrig/appstore/transactions", headers: headers,
                              body: Self.variant(of: body, mutated: layer == 1, &rng), seed: seed)
        }
        try Self.everythingFolds(f)
        exchange.expectReached([(200, nil, 20), (400, "malformed_json", 10), (409, nil, 10), (422, "app_store_transaction_invalid", 50)])
    }

    static let notificationTypes = [
        "SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "DID_FAIL_TO_RENEW", "EXPIRED",
        "GRACE_PERIOD_EXPIRED", "REFUND", "REFUND_REVERSED", "REVOKE", "TEST", "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "NOT_A_TYPE",
    ]

    @Test("App Store Server Notifications: never a 5xx, a refusal appends nothing, what is accepted folds")
    func notifications() throws {
        let f = try Self.fixture()
        defer { f.shutdown() }
        let token = try f.org("screenrig", admins: ["alice"])
        let exchange = Exchange(fixture: f, client: try f.service.client())
        // From the suite's seed, as everything else a case draws, so that a printed seed replays it.
        var draw = SeededRandom(seed: Property.seed("fuzz notifications: originals", 0))
        let originals = (0..<8).map { _ in String(Int64.random(in: 2_000_000_000_000_000...2_999_999_999_999_999, using: &draw)) }
        try Property.check("fuzz notifications", count: Self.cases) { rng, seed in
            let transaction = signer.transactionPayload(productID: rng.pick(products.values.sorted()), appAccountToken: token,
                                                        transactionID: Self.identifier(&rng), originalTransactionID: rng.pick(originals))
            // One layer at most is mutated: the body, the notification, or the transaction in it.
            let layer = rng.int(0...3)
            let inner = Self.signed(transaction, mutated: layer == 3, &rng)
            let renewal = rng.chance(0.3) ? signer.renewalInfo(originalTransactionID: rng.pick(originals)) : nil
            let notification = signer.notificationPayload(type: rng.pick(Self.notificationTypes), subtype: rng.chance(0.2) ? "VOLUNTARY" : nil,
                                                          transaction: inner, renewal: renewal)
            let body: JSONValue = ["signedPayload": .string(Self.signed(notification, mutated: layer == 2, &rng))]
            try exchange.send("POST", "/v1/appstore/notifications/sandbox", headers: [("Content-Type", "application/json")],
                              body: Self.variant(of: body, mutated: layer == 1, &rng), seed: seed)
        }
        try Self.everythingFolds(f)
        exchange.expectReached([(200, nil, 50), (400, "malformed_json", 10), (422, "app_store_transaction_invalid", 50)])
    }

    @Test("IAP transactions from the SDK: never a 5xx, a refusal appends nothing in the seed's Error shape")
    func iapTransactions() throws {
        let f = try Self.fixture()
        defer { f.shutdown() }
        let key = try f.app("demo")
        try f.settle()
        #expect(try f.service.context.catalog.waitUntilCurrent(position: try f.service.store.log.headPosition()))
        let exchange = Exchange(fixture: f, client: try f.service.client())
        let headers = [("X-ZeroSettle-Key", key), ("Content-Type", "application/json")]
        try Property.check("fuzz iap transactions", count: Self.cases) { rng, seed in
            let payload = signer.transactionPayload(productID: rng.pick(["pro_monthly", "coins_100", "ai.screenrig.plus.monthly"]),
                                                    transactionID: Self.identifier(&rng),
                                                    type: rng.pick(["Auto-Renewable Subscription", "Consumable", "Non-Consumable"]))
            let layer = rng.int(0...2)
            let body: JSONValue = ["user_id": .string(rng.chance(0.9) ? "user-\(rng.int(1...20))" : JSONFuzzer.edgeString(&rng)),
                                   "jws_representation": .string(Self.signed(payload, mutated: layer == 2, &rng))]
            try exchange.send("POST", "/v1/iap/transactions", headers: headers, body: Self.variant(of: body, mutated: layer == 1, &rng), seed: seed)
        }
        try Self.everythingFolds(f)
        exchange.expectReached([(200, nil, 50), (400, "malformed_json", 10), (422, "invalid_transaction", 50)])
    }

    /// Query strings: parameters repeated, out of range, malformed, forged cursors.
    @Test("query parameters of every read: never a 5xx, each refusal in its surface's shape")
    func queries() throws {
        let f = try Self.fixture()
        defer { f.shutdown() }
        let projectKey = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        for _ in 0..<3 { try f.credit(.payer("acme"), .grant, 1_000) }
        let appKey = try f.app("demo")
        try f.settle()
        let page = try f.get("/v1/payers/acme/journal?limit=1", key: payerKey)
        let cursor = try #require(page.body["next_cursor"]?.stringValue)
        let exchange = Exchange(fixture: f, client: try f.service.client())
        let reads: [(String, (String, String))] = [
            ("/v1/projects/web/balance", ("Authorization", "Bearer " + projectKey)),
            ("/v1/projects/web/journal", ("Authorization", "Bearer " + projectKey)),
            ("/v1/projects/web/usage", ("Authorization", "Bearer " + projectKey)),
            ("/v1/payers/acme/balance", ("Authorization", "Bearer " + payerKey)),
            ("/v1/payers/acme/journal", ("Authorization", "Bearer " + payerKey)),
            ("/v1/payers/acme/usage", ("Authorization", "Bearer " + payerKey)),
            ("/v1/iap/products", ("X-ZeroSettle-Key", appKey)),
        ]
        let names = ["min_position", "limit", "cursor", "month", "user_id", "junk", "", "limit[]"]
        let values: [JSONValue] = [.string(cursor), "2026-11", "1", "50", "0", "user-1"]
        try Property.check("fuzz queries", count: Self.cases) { rng, seed in
            let (path, credential) = rng.pick(reads)
            let query = (0..<rng.int(0...4)).map { _ in
                let value = rng.chance(0.5) ? rng.pick(values) : JSONFuzzer.mutate(.array([rng.pick(values)]), &rng)[0] ?? .null
                let text = value.stringValue ?? value.compactText()
                let encoded = rng.chance(0.8) ? Self.percentEncoded(String(text.prefix(3_000))) : String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.prefix(200).map(Character.init))
                return rng.pick(names) + "=" + encoded
            }.joined(separator: "&")
            try exchange.send("GET", path + (query.isEmpty ? "" : "?" + query), headers: [credential], seed: seed)
        }
        try Self.everythingFolds(f)
        exchange.expectReached([(200, nil, 100), (400, "invalid_cursor", 10), (400, "invalid_parameter", 10)])
    }

    /// Every byte but the unreserved ones as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let c = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) ? String(c) : String(format: "%%%02X", byte)
        }.joined()
    }
}
