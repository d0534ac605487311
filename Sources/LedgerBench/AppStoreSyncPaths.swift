import BenchHTTP
import Dispatch
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// The two ways a notification reaches the log in `ledger-bench appstore-sync`, each one
/// thread doing one notification after the other: delivered to the live endpoint by Apple,
/// and recovered from Apple's notification history by a sync run. Each measurement is
/// checked afterwards (outside its clock): every notification recorded, and the plans of a
/// sample of its organizations changed as the rules say.
struct AppStoreSyncPaths: Sendable {
    let apple: BenchAppStore
    let service: BenchService
    let projector: BenchProjector
    /// The sync's pool and store, as a login in ledger_projector.
    let syncConnections: PostgresPool
    let syncStore: EventStore

    /// The plan every notification of the run sells.
    static let plan = Plan.plus
    static let endpoint = "/v1/appstore/notifications/sandbox"

    var notificationURL: String { "http://127.0.0.1:\(service.port)\(Self.endpoint)" }

    /// A notification for each of `organizations` POSTed to the live endpoint by one client
    /// thread on one keep-alive connection, each signed before the clock; the seconds taken.
    func live(_ organizations: [BenchOrganizations.Organization]) throws -> Double {
        let bodies = organizations.map { org in
            (["signedPayload": .string(apple.subscribed(org.accountToken, Self.plan, originalTransactionID: org.originalTransactionID))] as JSONValue)
                .compactBytes()
        }
        let summary = try HTTPLoad.run(port: service.port, concurrency: 1, count: bodies.count, make: { i in
            HTTPLoad.Request(method: "POST", path: Self.endpoint, headers: [("Content-Type", "application/json")], body: bodies[i])
        }, check: { request, response in
            try HTTPLoad.expectOK(request, response)
            // `applied`: the subscription was recorded for its organization, not acknowledged
            // and set aside (an unknown token) nor taken for a duplicate.
            guard (try? JSONValue.parse(response.body))?["outcome"]?.stringValue == "applied" else {
                throw BenchmarkFailure(.unexpectedResponse, "a notification was not applied: " + String(decoding: response.body.prefix(300), as: UTF8.self))
            }
        })
        try checkPlans(organizations)
        return summary.seconds
    }

    /// A notification for each of `organizations`, dropped by a fresh stand-in for Apple (so
    /// that its history holds this measurement's alone and every run pages alike), then
    /// one sync run over it timed from its start to its end; the seconds taken and the
    /// pages it asked.
    func sync(_ organizations: [BenchOrganizations.Organization]) throws -> (seconds: Double, pages: Int) {
        let standIn = try apple.standIn()
        defer { standIn.stop() }
        // A minute before the first is signed: the window holds them all.
        let since = Timestamp(microseconds: SystemClock.now().microseconds - 60_000_000)!
        for org in organizations {
            standIn.deliver(notification: apple.subscribed(org.accountToken, Self.plan, originalTransactionID: org.originalTransactionID),
                            to: notificationURL, dropping: true)
        }
        let sync = apple.sync(of: standIn, every: 3_600, connections: syncConnections, store: syncStore)
        defer { sync.client.close() }
        let start = DispatchTime.now().uptimeNanoseconds
        let report = try sync.run(since: since)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard report.run.succeeded, report.recovered.count == organizations.count, report.run.seen == organizations.count, report.refused.isEmpty else {
            throw BenchmarkFailure(.unexpectedResponse, "the sync recovered \(report.recovered.count) of \(organizations.count) notifications (seen \(report.run.seen), refused \(report.refused.count), state \(report.run.state))")
        }
        try checkPlans(organizations)
        return (seconds, report.run.pages)
    }

    /// Waits for the projector to fold the log's head, then reads the plan of the first and
    /// last organizations and of some between: each must hold the plan sold.
    private func checkPlans(_ organizations: [BenchOrganizations.Organization]) throws {
        _ = try projector.wait(for: try service.store.log.headPosition(), connections: service.connections)
        let step = max(1, organizations.count / 10)
        let sample = Set(Array(stride(from: 0, to: organizations.count, by: step)) + [organizations.count - 1])
        for i in sample.sorted() {
            let plan = try currentPlan(organizations[i].id)
            guard plan == Self.plan else {
                throw BenchmarkFailure(.unexpectedResponse, "organization \(organizations[i].id) is on \(plan?.rawValue ?? "nothing") after its notification, not \(Self.plan.rawValue)")
            }
        }
    }

    /// The organization's plan now, as the services layer reads it for every surface
    /// (`OrganizationQuery`: the organizations projection's snapshot, judged at this instant),
    /// on the API's connections; nil for an organization the projection does not hold.
    func currentPlan(_ id: String) throws -> Plan? {
        try QueryRunner(connections: service.connections, clock: SystemClock.now)
            .answer(OrganizationQuery(id), as: .operator("ledger-bench"))?.current.plan
    }
}
