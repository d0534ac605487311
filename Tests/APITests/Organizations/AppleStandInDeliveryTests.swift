import AppStore
import AppStoreServerAPI
import AppStoreServerStandIn
import Foundation
import LedgerDomain
import Testing
import TestSupport

/// The stand-in for Apple sends Server Notifications as Apple does, and drops the ones it is
/// told to: what the ledger missed is then in Apple's notification history as a failure,
/// which the notification history sync reads (docs/appstore.md, "Recovery").
@Suite("Apple's stand-in delivers notifications, and drops some", .bounded)
struct AppleStandInDeliveryTests {
    @Test("a delivered notification is recorded; a dropped one is not, and the history lists it among the failures")
    func droppedIsInTheHistory() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let key = AppStoreSigningKey()
        let standIn = try AppStoreServerStandIn(configuration: AppStoreServerStandInConfiguration(
            issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34", bundleID: "ai.screenrig.app", key: key,
            signer: signer, appAppleID: 6_450_000_000))
        defer { standIn.stop() }
        let url = "http://127.0.0.1:\(f.service.server.port)/v1/appstore/notifications/sandbox"
        let now = Timestamp(microseconds: Int64(Date().timeIntervalSince1970) * 1_000_000)!
        let delivered = UUID(), dropped = UUID()
        let head = try f.service.store.log.headPosition()
        #expect(standIn.deliver(notification: signer.notification(type: "TEST", environment: "Sandbox", signedDate: now,
                                                                  notificationUUID: delivered), to: url) == .answered(status: 200))
        #expect(standIn.deliver(notification: signer.notification(type: "TEST", environment: "Sandbox", signedDate: now,
                                                                  notificationUUID: dropped), to: url, dropping: true) == .dropped)
        #expect(try f.service.store.log.headPosition() == head + 1, "the dropped one never reached the ledger")

        let client = AppStoreServerAPIClient(configuration: AppStoreServerAPIConfiguration(
            credentials: AppStoreServerAPICredentials(issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34",
                                                      bundleID: "ai.screenrig.app", key: key),
            environment: .local(baseURL: standIn.baseURL), verificationPolicy: TestCertificateAuthority.shared.developmentPolicy))
        defer { client.close() }
        let window = AppStoreNotificationHistoryQuery(start: Date().addingTimeInterval(-3_600), end: Date().addingTimeInterval(60),
                                                      onlyFailures: true)
        let failures = try client.notificationHistory(window)
        #expect(failures.map { $0.notification.value.notificationUUID.lowercased() } == [dropped.uuidString.lowercased()])
        #expect(failures.first?.neverDelivered == true)
    }
}
