import API
import Dispatch
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Projections
import Synchronization
import Testing
import TestSupport

@Suite("Admission bounded by the projections' lag", .bounded)
struct AdmissionTests {
    func batch(_ id: String) -> JSONValue {
        ["events": [["id": .string(id), "project_id": "solo", "meter": "api_requests", "quantity": 5,
                     "occurred_at": "2026-11-10T00:00:00Z"]]]
    }

    @Test("with the billing projection stopped past the bound, a usage batch is parked, then refused with Retry-After and nothing recorded; a notification is still recorded; the projection back, the same batch is accepted")
    func stoppedProjection() throws {
        let f = try BillingFixture(admission: AdmissionControl.Settings(bound: .milliseconds(50), wait: .milliseconds(400)))
        defer { f.shutdown() }
        try f.project("solo")
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        #expect(try f.post("/v1/usage/events", key: service, body: batch("before")).status == 200, "admitted while it keeps up")

        f.stopProjector()
        // Something the stopped projection will not fold: from now on it falls behind.
        try f.service.store.append(AppendRequest(events: [EventToAppend(
            stream: "payer-elsewhere", type: PayerCreated.type,
            data: try JSONValueEncoder().encode(PayerCreated(payerID: "elsewhere", name: "Elsewhere")),
            metadata: EventMetadata(actor: f.operatorActor, reason: "test"))]))
        #expect(Poll.until(timeout: 10) { f.service.context.progress.lag(of: "billing") > .milliseconds(50) })

        let head = try f.service.store.log.headPosition()
        let refused = try f.service.client().send(method: "POST", path: "/v1/usage/events",
                                                  headers: [("Content-Type", "application/json"), ("Authorization", "Bearer " + service)],
                                                  body: batch("during").compactBytes())
        #expect(refused.status == 503)
        #expect(try JSONValue.parse(refused.body)["code"] == "projection_behind")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1, "Retry-After: \(refused.headers["retry-after"] ?? "none")")
        #expect(try f.service.store.log.headPosition() == head, "nothing refused is in the log")
        let counts = f.service.context.admission.counts
        #expect(counts.refused.requests == 1 && counts.refused.events == 1 && counts.deferred.requests == 1, "\(counts)")

        // Apple's word is never refused for load: recorded while usage is refused.
        let notified = try f.notify(signer.notification(type: "TEST", environment: "Sandbox"))
        #expect(notified.status == 200, "\(notified.body)")
        #expect(try f.service.store.log.headPosition() == head + 1)
        #expect(f.service.context.admission.counts.unbounded.requests >= 1)
        let metrics = String(decoding: try f.service.operationsGet("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("ledger_admission_refused_requests 1") && metrics.contains("ledger_admission_lag_bound_seconds 0.05"),
                "\(metrics.split(separator: "\n").filter { $0.contains("admission") })")

        // The projection back, the batch sent again under the same ids is recorded.
        let projector = ProjectorThread(url: f.service.db.projectorURL, projections: AllProjections.all, batchSize: 200)
        defer { projector.stop() }
        #expect(Poll.until(timeout: 20) { f.service.context.progress.lag(of: "billing") == .zero })
        let again = try f.post("/v1/usage/events", key: service, body: batch("during"))
        #expect(again.status == 200 && again.body["accepted"] == 1, "\(again.body)")
        // The rate the projector says it folds at is on /metrics.
        let rate = Mutex<Double?>(nil)
        #expect(try Poll.until(timeout: 20) {
            let text = String(decoding: try f.service.operationsGet("/metrics").body, as: UTF8.self)
            let line = text.split(separator: "\n").first { $0.hasPrefix("ledger_admission_fold_rate ") }
            rate.withLock { $0 = line.flatMap { Double($0.split(separator: " ")[1]) } }
            return rate.withLock { $0 } != nil
        })
        #expect((rate.withLock { $0 } ?? 0) > 0)
    }

    @Test("a batch parked behind a slow projection is released when the projection folds, and then recorded")
    func releasedWhenFolded() throws {
        let f = try BillingFixture(admission: AdmissionControl.Settings(bound: .milliseconds(50), wait: .seconds(20)))
        defer { f.shutdown() }
        try f.project("solo")
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        f.stopProjector()
        try f.service.store.append(AppendRequest(events: [EventToAppend(
            stream: "payer-elsewhere", type: PayerCreated.type,
            data: try JSONValueEncoder().encode(PayerCreated(payerID: "elsewhere", name: "Elsewhere")),
            metadata: EventMetadata(actor: f.operatorActor, reason: "test"))]))
        #expect(Poll.until(timeout: 10) { f.service.context.progress.lag(of: "billing") > .milliseconds(50) })
        let answer = Mutex<(status: Int, body: JSONValue)?>(nil)
        let posting = Thread {
            do {
                let r = try f.post("/v1/usage/events", key: service, body: batch("parked"))
                answer.withLock { $0 = r }
            } catch {
                answer.withLock { $0 = (-1, .string("\(error)")) }
            }
        }
        posting.start()
        #expect(Poll.until(timeout: 10) { f.service.context.admission.parked == 1 }, "parked, holding no answer")
        #expect(answer.withLock { $0 } == nil)
        // The projection comes back: a projector of its own folds what is behind.
        let projector = ProjectorThread(url: f.service.db.projectorURL, projections: AllProjections.all, batchSize: 200)
        defer { projector.stop() }
        #expect(Poll.until(timeout: 20) { answer.withLock { $0 } != nil },
                "\(f.service.context.admission.counts), parked \(f.service.context.admission.parked), lag \(f.service.context.progress.lag(of: "billing")), billing at \(f.service.context.progress.position("billing") ?? -1), head \(f.service.context.progress.head ?? -1)")
        #expect(answer.withLock { $0?.status } == 200, "\(String(describing: answer.withLock { $0 }))")
        #expect(f.service.context.admission.counts.admitted.requests >= 1 && f.service.context.admission.counts.refused.requests == 0)
    }
}

extension AdmissionTests {
    @Test("an admitted batch is in flight until the log answers its append, not until its request is parked to wait for that answer")
    func inFlightUntilAnswered() throws {
        // The fault hook runs inside the append's transaction, before it commits: holding it
        // there keeps the append unanswered for as long as the test wants.
        let gate = AppendGate()
        let f = try BillingFixture(admission: AdmissionControl.Settings(bound: .seconds(5), wait: .seconds(20)),
                                   appendFaults: AppendFaults { gate.pass() })
        defer { gate.open(); f.shutdown() }
        try f.project("solo")
        let service = try f.key(for: KeyPrincipal(kind: .service, id: "metering"))
        let admission = f.service.context.admission
        #expect(admission.inFlight("billing") == 0)
        gate.close()
        let answer = Mutex<Int?>(nil)
        let posting = Thread {
            let status = (try? f.post("/v1/usage/events", key: service, body: batch("held")))?.status ?? -1
            answer.withLock { $0 = status }
        }
        posting.start()
        #expect(Poll.until(timeout: 10) { gate.held }, "the append reached its transaction")
        // The request waits parked (no thread holds it); its event is still in flight.
        #expect(admission.inFlight("billing") == 1)
        #expect(answer.withLock { $0 } == nil)
        gate.open()
        #expect(Poll.until(timeout: 10) { answer.withLock { $0 } != nil })
        #expect(answer.withLock { $0 } == 200)
        #expect(admission.inFlight("billing") == 0, "over once answered")
    }
}

/// Holds the appender inside its transaction while closed.
private final class AppendGate: Sendable {
    private let state = Mutex((closed: false, held: false))
    private let opened = DispatchSemaphore(value: 0)

    func close() { state.withLock { $0.closed = true } }

    func open() {
        let holding = state.withLock { s -> Bool in
            defer { s = (closed: false, held: false) }
            return s.held
        }
        if holding { opened.signal() }
    }

    var held: Bool { state.withLock { $0.held } }

    /// The fault hook: while closed, waits for `open`; never aborts.
    func pass() -> Bool {
        let wait = state.withLock { s -> Bool in
            if s.closed { s.held = true }
            return s.closed
        }
        if wait { opened.wait() }
        return false
    }
}
