import AppStore
import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Outbound
import Postgres
import ProjectionEngine
import Projections

/// The demo's history, played once the services answer, through the paths a deployment's
/// own clients take: usage through `POST /v1/usage/events` with the metering key, App
/// Store notifications signed by the development authority through the API's notification
/// endpoint, offers served through `GET /v1/iap/products`, and the operator's acts (holds,
/// a correction, month closes, a staff plan) through the same acts `ledger admin` runs.
/// `DemoData.seed` only lays the ground (accounts, prices, credits, keys, the catalog).
///
/// Every step is keyed (usage ids, hold ids, notification UUIDs, month closes, idempotency
/// keys) or skipped when what it made is there, so a restart of `ledger dev` appends
/// nothing (docs/console.md, "The demo").
struct DemoStory {
    let store: EventStore
    let connections: PostgresPool
    let baseURL: String
    /// The demo's keys by their name in `demo.json` (`metering`, …).
    let keys: [String: String]
    /// The publishable key of the catalog app.
    let catalogKey: String
    /// Signs App Store payloads with the development authority the API trusts.
    let appStore: AppStoreTestSigner
    /// The App Store product of each plan, as the API's settings name them.
    let planProducts: [Plan: String]
    let now: Date

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var runner: ActRunner { ActRunner(store: store, connections: connections, now: { Timestamp(microseconds: Int64(now.timeIntervalSince1970 * 1_000_000))! }) }

    /// Plays every part, then waits until every projection has applied the log, so that
    /// the first page a developer opens shows it.
    func play() throws {
        try recordUsage()
        try settleHolds()
        try correctGrant()
        try closeLastMonth()
        try playAppStoreSubscription()
        try serveOffers()
        try waitForProjections()
    }

    /// Waits until every projection has applied the log as it is now: what the API judges
    /// next (an App Store notification naming a new organization's token) sees it.
    func waitForProjections() throws {
        let head = try store.log.headPosition()
        for projection in AllProjections.all {
            _ = try ProjectionWait.until(projection, reaches: head, connections: connections, timeout: 30)
        }
    }

    // MARK: Acts

    /// Runs `act` as an operator's act under `key`, unless something was appended under it
    /// before; a projection behind what the act judges is waited for and the act decided
    /// again, as `ledger admin` does. A refusal with a code of `done` means a start before
    /// this one did it (a month closes once).
    func perform(_ act: any LedgerAct, key: String, actor: Actor = Actor(.operator, "demo-operator"), reason: String,
                 done: Set<Refusal.Code> = []) throws {
        guard try store.log.events(appendedUnder: "demo:" + key).isEmpty else { return }
        let metadata = EventMetadata(actor: actor, reason: reason)
        for _ in 0..<5 {
            let (outcome, _) = try runner.run(act, metadata: metadata, key: "demo:" + key)
            switch outcome {
            case .appended, .alreadyRecorded:
                return
            case .refused(let refusal) where done.contains(refusal.code):
                return
            case .projectionBehind(let behind):
                _ = try ProjectionWait.until(AllProjections.named(behind.projection) ?? BillingProjection(), reaches: behind.target,
                                             connections: connections, timeout: 30)
            default:
                throw Failure(description: "the demo's \(key) was not recorded: \(outcome)")
            }
        }
        throw Failure(description: "the demo's \(key): the projections did not catch up")
    }

    // MARK: HTTP

    /// `method path` on the API with `headers` and a JSON `body`; the answer's status and
    /// body. A status outside 2xx is a failure naming it.
    @discardableResult
    func call(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: JSONValue? = nil) throws -> JSONValue {
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        var request = OutboundRequest(method: method, url: baseURL + path,
                                      headers: headers + (body == nil ? [] : [("Content-Type", "application/json")]),
                                      body: body.map { Array($0.compactText().utf8) } ?? [], timeout: 30)
        request.keepsAnswer = true
        let response: OutboundResponse
        do {
            response = try client.send(request)
        } catch {
            throw Failure(description: "\(method) \(path): \(error)")
        }
        let text = response.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard (200..<300).contains(response.status) else {
            throw Failure(description: "\(method) \(path) answered \(response.status): \(text.prefix(300))")
        }
        return (try? JSONValue.parse(Array(text.utf8))) ?? .null
    }

    /// A fixed UUID for `name`, so that a notification sent again is the same one.
    static func uuid(_ name: String) -> UUID {
        var bytes = Array(SHA256.hash(Array("ledger demo \(name)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The instant `days` days before the story's now.
    func daysAgo(_ days: Double) -> Timestamp {
        Timestamp(microseconds: Int64((now.timeIntervalSince1970 - days * 86_400) * 1_000_000))!
    }
}
