import Foundation
import LedgerJSON
import LedgerServices
import Postgres
import Stripe
import Synchronization

/// The two paths of `ledger-bench stripe`, each on `clients` threads: a Stripe webhook
/// POSTed to the live endpoint of the real service (verified, read into its fact and
/// recorded), and the same kind of webhook verified in this process by
/// `StripeWebhookVerifier.verify` alone (its signature and the event's parse). Events are
/// signed before either clock.
struct StripeWebhookPaths: Sendable {
    /// An event and its `Stripe-Signature`.
    struct Signed: Sendable {
        var event: StripeBenchEvents.Event
        var header: String
    }

    let service: BenchService
    let appID: String
    let secret: String
    let clients: Int
    /// The benchmark's database as DATABASE_URL's role: the log's rows are counted there.
    let adminURL: String

    var path: String { "/v1/stripe/webhooks/\(appID)" }

    /// `events` signed now, each as Stripe signs a delivery (a fresh `t`, one `v1`).
    func sign(_ events: [StripeBenchEvents.Event]) -> [Signed] {
        let now = Int64(SystemClock.now().seconds)
        return events.map { Signed(event: $0, header: StripeBenchEvents.signature($0.body, secret: secret, timestamp: now)) }
    }

    /// `events` POSTed to the endpoint by the client threads, each on its own keep-alive
    /// connection; every answer must be 200 with `status` = `outcome` for its own event,
    /// or the run stops. The latencies and how many answered so.
    func post(_ events: [Signed], expecting outcome: String) throws -> (summary: LatencySummary, answered: Int) {
        let answered = Tally()
        let path = self.path
        // Which event each request carried, by its signature (one of its own, the bodies
        // being distinct): the answer must name that event.
        let expected = Dictionary(events.map { ($0.header, $0.event.id) }, uniquingKeysWith: { first, _ in first })
        let summary = try HTTPLoad.run(port: service.port, concurrency: clients, count: events.count, make: { i in
            HTTPLoad.Request(method: "POST", path: path,
                             headers: [("Content-Type", "application/json; charset=utf-8"),
                                       ("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)"),
                                       ("Stripe-Signature", events[i].header)],
                             body: events[i].event.body)
        }, check: { request, response in
            try HTTPLoad.expectOK(request, response)
            let body = try? JSONValue.parse(response.body)
            let sent = request.headers.first { $0.0 == "Stripe-Signature" }.flatMap { expected[$0.1] }
            guard body?["status"]?.stringValue == outcome, let sent, body?["event_id"]?.stringValue == sent else {
                throw BenchmarkFailure(.unexpectedResponse, "a webhook was not \(outcome): " + String(decoding: response.body.prefix(300), as: UTF8.self))
            }
            answered.add()
        })
        return (summary, answered.value)
    }

    /// `events` verified by `StripeWebhookVerifier.verify` on the client threads, each at
    /// the clock's time as the endpoint reads it, nothing else; each must verify as its
    /// own event.
    func verify(_ events: [Signed]) throws -> LatencySummary {
        let verifier = StripeWebhookVerifier(secrets: [secret])
        return try ClosedLoop.run(concurrency: clients, count: events.count, name: "bench-verify") { _ in
            { i in
                let event = try verifier.verify(header: events[i].header, body: events[i].event.body, now: SystemClock.now().seconds)
                guard event.id == events[i].event.id else {
                    throw BenchmarkFailure(.unexpectedResponse, "\(events[i].event.id) verified as \(event.id)")
                }
            }
        }
    }

    /// The rows of the log (`events`), counted.
    func logRows() throws -> Int64 {
        let connection = try PostgresConnection(conninfo: adminURL)
        guard let rows = try connection.query("SELECT count(*) FROM events").rows.first?.int64(0) else {
            throw BenchmarkFailure(.unexpectedResponse, "the log's rows could not be counted")
        }
        return rows
    }
}

/// A count that client threads add to.
private final class Tally: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
