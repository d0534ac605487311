import AppStore
import AppStoreServerAPI
import AppStoreServerStandIn
import EventStore
import Foundation
import LedgerDomain
import Postgres
import TestSupport

/// The service, a stand-in for Apple on the service's clock (2026-11-10T12:00:00Z to
/// start), clients of it as LEDGER_APPSTORE_API_KEYS would make them, and a store that
/// records as the projector's role does: what the tests of the jobs that ask Apple share.
final class AppleHarness: Sendable {
    let f: BillingFixture
    let key = AppStoreSigningKey()
    let standIn: AppStoreServerStandIn
    let connections: PostgresPool
    let store: EventStore
    static let bundleID = "ai.screenrig.app"

    init(pageSize: Int = 20) throws {
        f = try BillingFixture()
        f.service.clock.set("2026-11-10T12:00:00Z")
        let clock = f.service.clock
        standIn = try AppStoreServerStandIn(configuration: AppStoreServerStandInConfiguration(
            issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34", bundleID: Self.bundleID, key: key,
            signer: signer, pageSize: pageSize, clock: { Date(timeIntervalSince1970: clock.read().seconds) }))
        connections = PostgresPool(conninfo: f.service.db.projectorURL, maximumConnections: 2)
        store = EventStore(conninfo: f.service.db.projectorURL, connections: connections)
    }

    var notificationURL: String { "http://127.0.0.1:\(f.service.server.port)/v1/appstore/notifications/sandbox" }

    /// A client of the stand-in on the service's clock, retrying quickly.
    func client() -> AppStoreServerAPIClient {
        let clock = f.service.clock
        let configuration = AppStoreServerAPIConfiguration(
            credentials: AppStoreServerAPICredentials(issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34",
                                                      bundleID: Self.bundleID, key: key),
            environment: .local(baseURL: standIn.baseURL), appAppleID: 6_450_000_000,
            verificationPolicy: TestCertificateAuthority.shared.developmentPolicy,
            retry: AppStoreServerAPIRetryPolicy(maximumAttempts: 3, baseDelay: 0.01, maximumDelay: 0.05))
        return AppStoreServerAPIClient(configuration: configuration, clock: { Date(timeIntervalSince1970: clock.read().seconds) })
    }

    func head() throws -> Int64 { try f.service.store.log.headPosition() }

    func shutdown() {
        store.close()
        standIn.stop()
        f.shutdown()
    }
}
