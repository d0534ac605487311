import API
@testable import BenchHTTP
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Observability
import Postgres
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// Each case over HTTP as it was first reproduced, when it could still stop, stall or crash
/// the ledger: what the service answers now.
@Suite("Nothing a client sends can stop, stall or crash the ledger", .bounded)
struct NoClientStopsTheLedgerTests {
    static func usage(_ id: String, quantity: JSONValue, project: String = "solo") -> JSONValue {
        ["id": .string(id), "project_id": .string(project), "meter": "api_requests", "quantity": quantity,
         "occurred_at": "2026-11-10T00:00:00Z"]
    }

    @Test("a quantity past the limit is a 422 at the door; billing goes on for everyone")
    func hugeQuantity() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let project = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let head = try f.service.store.log.headPosition()
        let r = try f.post("/v1/usage/events", key: service, body: ["events": [Self.usage("huge", quantity: 1_000_000_000_000_000_000)]])
        #expect(r.status == 422 && r.body["code"] == "invalid_usage_batch", "\(r.body)")
        #expect(r.body["errors"]?[0]?.stringValue?.contains("above the limit") == true)
        #expect(try f.service.store.log.headPosition() == head)
        // At the limit it is accepted, and folded: the projection does not stop.
        let ok = try f.post("/v1/usage/events", key: service, body: ["events": [Self.usage("max", quantity: 1_000_000_000)]])
        #expect(ok.status == 200)
        try f.settle()
        #expect(try f.get("/v1/projects/solo/usage?month=2026-11", key: project).body["units"]?["counted"] == 1_000_000_000)
        let readiness = try f.service.context.connections.read { try ProjectionSchema.progress("proj_billing", on: $0) }
        #expect(readiness?.failedPosition == nil)
    }

    @Test("min_position beyond the head is a 400 at once, even for many at a time")
    func minPositionBeyondHead() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let group = DispatchGroup()
        let statuses = Statuses()
        for _ in 0..<24 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let r = try? f.get("/v1/projects/solo/balance?min_position=999999999", key: key)
                statuses.append(r?.status ?? -1, code: r?.body["code"]?.stringValue)
            }
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(statuses.all.allSatisfy { $0 == (400, "min_position_beyond_head") }, "\(statuses.all)")
        // A read that waited would end in 503 projection_behind: the 400 says it did not.
        #expect(try f.service.get("/healthz").status == 200)
    }

    @Test("user ids are checked (400), anything else of the sync is stored", arguments: [
        ("nul\u{0}inside", 400), ("with space", 200), ("ünïcödé", 200), ("../../etc/passwd", 200),
        (String(repeating: "u", count: 256), 200), (String(repeating: "u", count: 257), 400), ("tab\there", 400),
    ])
    func userIDs(_ user: String, _ expected: Int) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let key = try f.app("demo")
        try f.settle()
        #expect(try f.service.context.catalog.waitUntilCurrent(position: try f.service.store.log.headPosition()))
        let head = try f.service.store.log.headPosition()
        let jws = signer.transaction(productID: "pro_monthly", transactionID: "2000000\(Int.random(in: 100_000...999_999))")
        let body: JSONValue = ["user_id": .string(user), "jws_representation": .string(jws)]
        let r = try f.service.client().send(method: "POST", path: "/v1/iap/transactions",
                                            headers: [("X-ZeroSettle-Key", key), ("Content-Type", "application/json")], body: body.compactBytes())
        #expect(r.status == expected, "\(String(decoding: r.body, as: UTF8.self))")
        if expected == 400 {
            let error = try JSONValue.parse(r.body)
            // U+0000 cannot be stored at all: the body is refused as it is read, saying where.
            let named = error["error"]?.stringValue?.contains(user.contains("\u{0}") ? "\\u0000" : "user_id") == true
            #expect(error["code"] != nil && named, "the seed's Error, naming what was wrong: \(error)")
            #expect(try f.service.store.log.headPosition() == head)
        }
    }

    @Test("ids Apple signs are stored whatever they hold, in transactions and notifications", arguments: [
        "nul\u{0}inside", "with space", "ünïcödé", "../../x", String(repeating: "7", count: 300), "sha256=abc",
    ])
    func signedIDs(_ id: String) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let jws = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                     transactionID: id, originalTransactionID: id)
        let recorded = try f.record(jws, org: "acme")
        #expect(recorded.status == 200, "\(recorded.body)")
        #expect(try f.record(jws, org: "acme").body["recorded"] == false, "recorded once")
        let renewal = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox",
                                         transactionID: id + "-2", originalTransactionID: id)
        let payload = signer.notification(type: "DID_RENEW", transaction: renewal, extra: ["notificationUUID": .string(id)])
        let first = try f.notify(payload)
        #expect(first.status == 200, "\(first.body)")
        #expect(try f.notify(payload).body["outcome"] == "duplicate")
    }

    @Test("the database unreachable is a 503 with Retry-After on reads and writes, never a 500")
    func databaseDown() throws {
        let store = EventStore(conninfo: "postgresql://nobody@127.0.0.1:9/none?connect_timeout=1",
                               connections: PostgresPool(conninfo: "postgresql://nobody@127.0.0.1:9/none?connect_timeout=1", maximumConnections: 2,
                                                  acquireTimeout: 2),
                               resolveTimeout: 1)
        defer { store.close() }
        let context = ServiceContext(store: store, connections: store.connections, logger: Logger(sink: MemoryLogSink()), metrics: MetricsRegistry(),
                                     migrations: [], cursorSecret: Array("test-cursor-secret-of-at-least-32-bytes".utf8))
        context.start()
        defer { context.stop() }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2), router: LedgerAPI.router(context),
                                logger: Logger(sink: MemoryLogSink()))
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        let client = try HTTPClient(host: "127.0.0.1", port: server.port)
        for (method, path, body) in [("GET", "/v1/projects/solo/balance", ""), ("GET", "/v1/projects/solo/journal", ""),
                                     ("POST", "/v1/usage/events", #"{"events":[]}"#), ("GET", "/v1/iap/products", ""),
                                     ("GET", "/v1/log/checkpoints/latest", ""), ("GET", "/v1/log/proofs/inclusion?position=1&size=1", ""),
                                     ("GET", "/v1/log/proofs/consistency?from=1&to=1", "")] {
            let auth: [(String, String)] = [("Authorization", "Bearer sk_live_whatever"), ("X-ZeroSettle-Key", "zs_pk_test_x"),
                                            ("Content-Type", "application/json")]
            let r = try client.send(method: method, path: path, headers: auth, body: Array(body.utf8))
            #expect(r.status == 503, "\(method) \(path): \(String(decoding: r.body, as: UTF8.self))")
            #expect(r.headers["Retry-After"] != nil, "\(path)")
        }
        let ready = try client.send(method: "GET", path: "/readyz")
        #expect(ready.status == 503)
    }

    @Test("a refused transaction appends nothing, not even the education grant its reader would make")
    func refusalAppendsNothing() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        try f.orgEvent(StaffPlanDecided(orgID: "acme", plan: .premium), "acme")
        try f.settle()
        let head = try f.service.store.log.headPosition()
        let jws = signer.transaction(productID: products[.plus]!, appAccountToken: token, environment: "Sandbox")
        let r = try f.record(jws, org: "acme", email: "alice@district.k12.ca.us")
        #expect(r.status == 409 && r.body["code"] == "app_store_plan_conflict", "\(r.body)")
        #expect(try f.service.store.log.headPosition() == head)
    }

    @Test("a key given twice is a 400 naming it, in every body; 1e3 is not 1000")
    func duplicateKeysEverywhere() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        _ = try f.org("acme")
        let head = try f.service.store.log.headPosition()
        let notification = try f.service.client().send(method: "POST", path: "/v1/appstore/notifications/sandbox",
                                                       headers: [("Content-Type", "application/json")],
                                                       body: Array(#"{"signedPayload":"a","signedPayload":"b"}"#.utf8))
        #expect(notification.status == 400)
        #expect(try JSONValue.parse(notification.body)["code"] == "duplicate_key")
        #expect(String(decoding: notification.body, as: UTF8.self).contains("signedPayload"))
        let transaction = try f.service.client().send(
            method: "POST", path: "/v1/orgs/acme/appstore/transactions",
            headers: [f.session("alice", org: "acme"), ("Content-Type", "application/json"), ("Origin", TestService.origin),
                      ("X-CSRF-Token", "csrf-token")],
            body: Array(#"{"signed_transaction":"x","signed_transaction":"y"}"#.utf8))
        #expect(transaction.status == 400)
        #expect(try JSONValue.parse(transaction.body)["code"] == "duplicate_key")
        #expect(try f.service.store.log.headPosition() == head)
    }
}

/// Statuses and codes collected from background threads.
final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [(Int, String?)] = []
    func append(_ status: Int, code: String?) { lock.lock(); values.append((status, code)); lock.unlock() }
    var all: [(Int, String?)] { lock.lock(); defer { lock.unlock() }; return values }
}
