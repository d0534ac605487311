import API
import AppStore
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices
import ProjectionEngine
import Projections
import Synchronization
import TestSupport
import Testing

/// The real service over HTTP, a projector in the test process, and helpers that append
/// operator events directly (the `ledger admin` commands have tests of their own).
final class BillingFixture: Sendable {
    let service: TestService
    private let projector: ProjectorThread
    let operatorActor = Actor(.operator, "test-operator")

    convenience init(notificationsPerSecond: Double = 1_000, offerSigners: [PromotionalOfferSigner] = [],
                     stripeSecrets: [String: [String]] = [:], admission: AdmissionControl.Settings = AdmissionControl.Settings(),
                     appendFaults: AppendFaults = .none) throws {
        try self.init(service: TestService(notificationsPerSecond: notificationsPerSecond, offerSigners: offerSigners,
                                           stripeSecrets: stripeSecrets, admission: admission, appendFaults: appendFaults))
    }

    /// Over a service built by the test (on a cluster of its own, with replicas), its
    /// projector folding `projections`.
    init(service: TestService, projections: [any Projection] = AllProjections.all) throws {
        self.service = service
        projector = ProjectorThread(url: service.db.projectorURL, projections: projections, batchSize: 200)
    }

    func shutdown() {
        projector.stop()
        service.shutdown()
    }

    /// Stops the projector, so that the projections stay behind what is appended next.
    func stopProjector() { projector.stop() }

    // MARK: Appending operator events

    @discardableResult
    func append<E: DomainEvent>(_ event: E, stream: String, occurredAt: Timestamp? = nil, corrects: Int64? = nil,
                                key: String? = nil) throws -> AppendResult {
        let data = try JSONValueEncoder().encode(event)
        let result = try service.store.append(AppendRequest(
            events: [EventToAppend(stream: stream, type: E.type, data: data,
                                   metadata: EventMetadata(actor: operatorActor, reason: "test"),
                                   occurredAt: occurredAt, correctsPosition: corrects, idempotencyKey: key)]))
        try settle()
        return result
    }

    /// Waits until the billing projection has applied everything appended so far.
    func settle() throws {
        let head = try service.store.log.headPosition()
        #expect(try ProjectionWait.until(BillingProjection(), reaches: head, connections: service.context.connections, timeout: 20))
    }

    func payer(_ id: String, allowance: Int64 = 0) throws {
        try append(PayerCreated(payerID: id, name: id), stream: "payer-" + id, occurredAt: t("2026-01-01T00:00:00Z"))
        try append(PlanSet(pool: .payer(id), plan: "team", allowanceStorageBytes: allowance), stream: "payer-" + id)
    }

    func project(_ id: String, payer: String? = nil, allowance: Int64 = 0) throws {
        let funding: Funding = payer.map { .payer($0) } ?? .selfPaying
        try append(ProjectCreated(projectID: id, name: id, funding: funding), stream: "project-" + id,
                   occurredAt: t("2026-01-01T00:00:00Z"))
        if payer == nil {
            try append(PlanSet(pool: .project(id), plan: "solo", allowanceStorageBytes: allowance), stream: "project-" + id)
        }
    }

    /// Issues a key and returns its secret.
    func key(for principal: KeyPrincipal) throws -> String {
        let secret = "sk_test_" + Hex.encode(SecureRandom.bytes(16))
        let keyID = "key_" + Hex.encode(SecureRandom.bytes(4))
        try append(KeyIssued(keyID: keyID, principal: principal, sha256: Hex.encode(SHA256.hash(Array(secret.utf8))),
                             prefix: String(secret.prefix(12))), stream: "key-" + keyID)
        return secret
    }

    func credit(_ pool: Pool, _ source: CreditSource, _ amount: Int64) throws -> AppendResult {
        try append(CreditPosted(pool: pool, source: source, amount: Millicredits(amount), description: "test \(source)"),
                   stream: pool.ownerStream)
    }

    func prices(unit: Int64, storagePerGiB: Int64) throws {
        try append(PricingConfigured(unitPrice: Millicredits(unit), storagePricePerGiBMonth: Millicredits(storagePerGiB)),
                   stream: "config-pricing")
    }

    func usage(_ project: String, _ meter: Meter, _ quantity: Int64, at: String, id: String = UUID().uuidString) throws {
        try append(UsageRecorded(usageID: id, projectID: project, meter: meter, quantity: quantity),
                   stream: UsageDecider.stream(project), occurredAt: t(at), key: UsageDecider.idempotencyKey(usageID: id))
    }

    /// The two-phase close, as `ledger admin month close` does it.
    func closeMonth(_ pool: Pool, _ month: String) throws -> MonthClosed {
        let m = UTCMonth(month)!
        try append(MonthClosing(pool: pool, month: m), stream: PoolMonth(pool, m).stream)
        try settle()
        let closing = try BillingReadModel(connections: service.context.connections).closingMonth(PoolMonth(pool, m))
        let closed = try MonthCloseDecider.closed(PoolMonth(pool, m), closing: closing).events[0].decode(MonthClosed.self)
        try append(closed, stream: PoolMonth(pool, m).stream)
        return closed
    }

    // MARK: HTTP

    func get(_ path: String, key: String?) throws -> (status: Int, body: JSONValue, headers: HTTPHeaders) {
        var headers: [(String, String)] = []
        if let key { headers.append(("Authorization", "Bearer " + key)) }
        let r = try service.client().send(method: "GET", path: path, headers: headers)
        return (r.status, r.body.isEmpty ? .null : try JSONValue.parse(r.body), r.headers)
    }

    func post(_ path: String, key: String?, body: JSONValue) throws -> (status: Int, body: JSONValue) {
        try post(path, key: key, raw: body.compactText())
    }

    /// A body as written, for JSON no encoder would produce (a repeated key, `1e3`).
    func post(_ path: String, key: String?, raw: String) throws -> (status: Int, body: JSONValue) {
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        if let key { headers.append(("Authorization", "Bearer " + key)) }
        let r = try service.client().send(method: "POST", path: path, headers: headers, body: Array(raw.utf8))
        return (r.status, r.body.isEmpty ? .null : try JSONValue.parse(r.body))
    }
}

func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

/// B2: every amount in a response is a canonical decimal string.
func amountFields(_ value: JSONValue, path: String = "") -> [(String, JSONValue)] {
    let moneyKeys: Set<String> = ["amount", "posted", "held", "available", "units_amount", "storage_amount"]
    switch value {
    case .object(let members):
        return members.flatMap { key, v -> [(String, JSONValue)] in
            let p = path + "." + key
            if moneyKeys.contains(key), !(v.objectValue != nil) { return [(p, v)] }
            return amountFields(v, path: p)
        }
    case .array(let items): return items.enumerated().flatMap { amountFields($1, path: path + "[\($0)]") }
    default: return []
    }
}

func isCanonicalAmount(_ v: JSONValue) -> Bool {
    guard let s = v.stringValue else { return false }
    return Millicredits(canonical: s)?.canonical == s
}
