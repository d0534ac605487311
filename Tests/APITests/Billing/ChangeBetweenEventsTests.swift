import API
import Crypto
import Dispatch
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Projections
import Synchronization
import Testing
import TestSupport

/// Billing (docs/billing.md): the rules hold when something changes between two events (a
/// project's funding, a month closing, a key just issued).
@Suite("Billing rules across a change between two events", .bounded)
struct ChangeBetweenEventsTests {
    func event(_ id: String, _ project: String, quantity: Int64, at: String) -> JSONValue {
        ["id": .string(id), "project_id": .string(project), "meter": "api_requests", "quantity": .integer(quantity),
         "occurred_at": .string(at)]
    }

    /// The sum of an account's journal, read through its cursor pages.
    func journalNet(_ f: BillingFixture, _ path: String, key: String) throws -> Int64 {
        let entries = try f.get(path + "/journal?limit=200", key: key).body["entries"]?.arrayValue ?? []
        return entries.compactMap { $0["amount"]?.stringValue.flatMap { Int64($0) } }.reduce(0, +)
    }

    @Test("U6: a funding change within a month splits it; each part counts against its own pool's free limit, and every read agrees with the journal")
    func u6FundingSplitsTheMonth() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web")
        try f.prices(unit: 3, storagePerGiB: 0)
        _ = try f.credit(.project("web"), .purchase, 100_000)
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "web"))
        let payerKey = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        #expect(try f.post("/v1/usage/events", key: service, body: ["events": [event("a", "web", quantity: 10_500, at: "2026-11-10T00:00:00Z")]]).status == 200)
        try f.append(ProjectFundingChanged(projectID: "web", funding: .payer("acme"), effectiveAt: t("2026-11-15T12:00:00Z")),
                     stream: "project-web")
        f.service.clock.set("2026-11-20T00:00:00Z")
        #expect(try f.post("/v1/usage/events", key: service, body: ["events": [event("b", "web", quantity: 200, at: "2026-11-20T00:00:00Z")]]).status == 200)
        try f.settle()

        let usage = try f.get("/v1/projects/web/usage?month=2026-11", key: key).body
        #expect(usage["payer"] == ["kind": "payer", "id": "acme"])
        let parts = try #require(usage["parts"]?.arrayValue)
        #expect(parts.map { $0["payer"] } == [["kind": "payer", "id": "acme"], ["kind": "self", "id": "web"]])
        #expect(parts[0]["units"]?["counted"] == 200 && parts[0]["units"]?["free_used"] == 200 && parts[0]["amount"] == "0")
        #expect(parts[1]["units"]?["counted"] == 10_500 && parts[1]["units"]?["free_used"] == 10_000
                && parts[1]["units"]?["billed"] == 500 && parts[1]["amount"] == "1500")
        for part in parts { #expect(part["units"]?["free_limit"] == 10_000) }
        #expect(usage["units"]?["free_limit"] == 20_000 && usage["units"]?["free_used"] == 10_200, "free units never exceed the limit they were counted against")
        #expect(usage["amount"] == "1500")
        let payerUsage = try f.get("/v1/payers/acme/usage?month=2026-11", key: payerKey).body
        #expect(payerUsage["projects"]?.arrayValue?.map { $0["units"]?["counted"] } == [200])

        // Both pools close their part of the month; the project's reads agree with its journal.
        _ = try f.closeMonth(.project("web"), "2026-11")
        _ = try f.closeMonth(.payer("acme"), "2026-11")
        f.service.clock.set("2026-12-02T00:00:00Z")
        let balance = try f.get("/v1/projects/web/balance", key: key).body
        #expect(balance["scope"] == "share" && balance["payer"] == ["kind": "payer", "id": "acme"] && balance["posted"] == "0")
        let others = try #require(balance["other_pools"]?.arrayValue)
        #expect(others.count == 1)
        #expect(others.first?["payer"] == ["kind": "self", "id": "web"] && others.first?["scope"] == "pool")
        #expect(others.first?["posted"] == "98500" && others.first?["available"] == "98500",
                "the project's own pool, with what is left of its credit, is on its read")
        let postedTotal = ([balance["posted"]] + others.map { $0["posted"] }).compactMap { $0?.stringValue.flatMap { Int64($0) } }.reduce(0, +)
        #expect(postedTotal == (try journalNet(f, "/v1/projects/web", key: key)))
        #expect(try f.get("/v1/projects/web/usage?month=2026-11", key: key).body["status"] == "closed")
    }

    @Test("U (month close racing ingestion): once usage.month_closing is in the log, usage of that month decided before it is refused by the log, and nothing is appended")
    func closingGatesTheMonth() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let month = PoolMonth(.project("solo"), UTCMonth("2026-10")!)
        let batch = [UsageDecider.Measurement(id: "late", projectID: "solo", meter: "api_requests", quantity: 5,
                                              occurredAt: t("2026-10-31T23:00:00Z"))]
        // Decided while the month is open, as an ingestion that has not seen the closing yet.
        let state = try BillingReadModel(connections: f.service.context.connections).usageState(projects: ["solo"])
        let decision = try UsageDecider.decide(batch, state: state, now: t("2026-11-01T00:00:00Z"))
        #expect(decision.expectedVersions == [month.stream: .noStream])
        let closing = try #require(try MonthCloseDecider.closing(month, status: nil, now: t("2026-11-02T00:00:00Z"), force: false,
                                                                 state: AccountsDecider.State(projects: ["solo"], knownPools: [.project("solo")])))
        _ = try f.service.store.append(AppendRequest(closing, metadata: EventMetadata(actor: f.operatorActor, reason: "close")))
        let head = try f.service.store.log.headPosition()
        #expect(throws: AppendError.self) {
            try f.service.store.append(AppendRequest(decision, metadata: EventMetadata(actor: Actor(.service, "metering"))))
        }
        #expect(try f.service.store.log.headPosition() == head, "nothing appended")
        try f.settle()
        #expect(try BillingReadModel(connections: f.service.context.connections).lateUsage().isEmpty)
    }

    @Test("U (month close racing ingestion): closes under concurrent ingestion bill every event answered 2xx, and an event refused appended nothing", arguments: [1, 2] as [UInt64])
    func closesUnderConcurrentIngestion(seed: UInt64) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        for p in ["web", "app"] { try f.project(p, payer: "acme") }
        try f.prices(unit: 1, storagePerGiB: 0)
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        f.service.clock.set("2026-11-01T00:00:10Z")
        let accepted = Mutex<[String: Int64]>([:])   // usage id → quantity, for every 2xx
        let refusedStatuses = Mutex<[Int]>([])
        let stop = Atomic<Bool>(false)
        let group = DispatchGroup()
        for writer in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var random = SeededRandom(seed: seed * 100 + UInt64(writer))
                var n = 0
                // Until told to stop, then once more: the month is closed by then, so that one is refused.
                var last = false
                while !last {
                    last = stop.load(ordering: .relaxed)
                    n += 1
                    let id = "w\(writer)-\(n)"
                    let quantity = Int64(random.int(1...50))
                    let body: JSONValue = ["events": [["id": .string(id), "project_id": .string(random.pick(["web", "app"])),
                                                       "meter": "api_requests", "quantity": .integer(quantity),
                                                       "occurred_at": "2026-10-31T23:59:00Z"]]]
                    guard let r = try? f.post("/v1/usage/events", key: service, body: body) else {
                        refusedStatuses.withLock { $0.append(-1) }
                        continue
                    }
                    if r.status == 200 {
                        if r.body["accepted"] == 1 { accepted.withLock { $0[id] = quantity } }
                    } else {
                        refusedStatuses.withLock { $0.append(r.status) }
                    }
                }
            }
        }
        // Let ingestion run, then close the month while it still does.
        #expect(Poll.until(timeout: 20) { accepted.withLock { $0.count } >= 20 })
        let closed = try f.closeMonth(.payer("acme"), "2026-10")
        stop.store(true, ordering: .relaxed)
        #expect(group.wait(timeout: .now() + 30) == .success)
        try f.settle()
        let billedUnits = closed.charges.map { Int64($0.units.value) }.reduce(0, +)
        let acceptedUnits = accepted.withLock { $0.values.reduce(0, +) }
        #expect(billedUnits == acceptedUnits, "seed \(seed): every event answered 2xx is in the charge")
        #expect(try BillingReadModel(connections: f.service.context.connections).lateUsage().isEmpty, "seed \(seed): no usage slipped in")
        let refused = refusedStatuses.withLock { $0 }
        #expect(refused.count >= 4 && refused.allSatisfy { $0 == 422 }, "seed \(seed): \(refused)")
        let recorded = try f.service.db.connect().query("SELECT count(*) FROM events WHERE type = 'usage.recorded'")[0].int64(0)
        #expect(recorded == Int64(accepted.withLock { $0.count }), "seed \(seed): a refused event appended nothing")
    }

    @Test("U (retry after close): the same usage event sent again after its month closed is a duplicate; other content is a 409")
    func retryAfterCloseIsADuplicate() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let original = event("u1", "solo", quantity: 7, at: "2026-10-20T00:00:00Z")
        let first = try f.post("/v1/usage/events", key: service, body: ["events": [original]])
        #expect(first.status == 200 && first.body["accepted"] == 1)
        _ = try f.closeMonth(.project("solo"), "2026-10")
        let head = try f.service.store.log.headPosition()
        let retry = try f.post("/v1/usage/events", key: service, body: ["events": [original]])
        #expect(retry.status == 200 && retry.body["accepted"] == 0 && retry.body["duplicates"] == 1, "\(retry.body)")
        #expect(retry.body["position"] == first.body["position"])
        // With a new event of an open month beside it, the retry is still counted once.
        let mixed = try f.post("/v1/usage/events", key: service, body: ["events": [original, event("u2", "solo", quantity: 1, at: "2026-11-02T00:00:00Z")]])
        #expect(mixed.status == 200 && mixed.body["accepted"] == 1 && mixed.body["duplicates"] == 1, "\(mixed.body)")
        let other = try f.post("/v1/usage/events", key: service, body: ["events": [event("u1", "solo", quantity: 8, at: "2026-10-20T00:00:00Z")]])
        #expect(other.status == 409 && other.body["code"] == "usage_id_conflict")
        let new = try f.post("/v1/usage/events", key: service, body: ["events": [event("u3", "solo", quantity: 1, at: "2026-10-21T00:00:00Z")]])
        #expect(new.status == 422 && new.body["code"] == "invalid_usage_batch")
        #expect(try f.service.store.log.headPosition() == head + 1, "only u2 was appended")
    }

    @Test("B, J (read-your-writes): a key issued at position N authenticates a read with min_position=N at once", arguments: 0..<20)
    func freshKeyWaitsThenAuthenticates(attempt: Int) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let secret = "sk_test_" + Hex.encode(SecureRandom.bytes(16))
        let keyID = "key_fresh_\(attempt)"
        let issued = KeyIssued(keyID: keyID, principal: KeyPrincipal(kind: .project, id: "solo"),
                               sha256: Hex.encode(SHA256.hash(Array(secret.utf8))), prefix: String(secret.prefix(12)))
        // Appended without waiting for the projector, as `ledger admin key issue` answers.
        let r = try f.service.store.append(AppendRequest(events: [EventToAppend(
            stream: "key-" + keyID, type: KeyIssued.type, data: try JSONValueEncoder().encode(issued),
            metadata: EventMetadata(actor: f.operatorActor, reason: "test"))]))
        for path in ["balance", "journal", "usage"] {
            let read = try f.get("/v1/projects/solo/\(path)?min_position=\(r.position)", key: secret)
            #expect(read.status == 200, "\(path): \(read.body)")
        }
    }
}
