import AppStore
import AppStoreServerAPI
import Foundation
import LedgerDomain
import Testing
import TestSupport

@Suite("A signed value that does not verify is an error, never dropped", .bounded)
struct VerificationTests {
    @Test("a transaction signed by an authority the policy does not trust")
    func untrustedChain() throws {
        let fixture = try StandInFixture()
        let stranger = TestAppStoreSigner(authority: TestCertificateAuthority(name: "Stranger"))
        let id = "1000000000000500"
        fixture.standIn.add(transaction: stranger.transaction(transactionID: id))
        let error = try #require(throws: AppStoreServerAPIError.self) { try fixture.client().transactionInfo(transactionID: id) }
        #expect(error.code == .unverifiedSignedValue)
        #expect(error.verification?.code == .untrustedChain)
    }

    @Test("under the production policy, the test authority's answers are refused")
    func productionPolicy() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client(policy: .production).transactionInfo(transactionID: transaction.transactionID)
        }
        #expect(error.code == .unverifiedSignedValue)
    }

    @Test("another app's transaction, or another environment's")
    func bundleAndEnvironment() throws {
        let fixture = try StandInFixture()
        var other = fixture.signer
        other.bundleID = "com.example.other"
        fixture.standIn.add(transaction: other.transaction(transactionID: "1000000000000600"))
        fixture.standIn.add(transaction: fixture.signer.transaction(environment: "Xcode", transactionID: "1000000000000601"))
        let client = fixture.client()
        let bundle = try #require(throws: AppStoreServerAPIError.self) { try client.transactionInfo(transactionID: "1000000000000600") }
        #expect(bundle.verification?.code == .bundleMismatch)
        let environment = try #require(throws: AppStoreServerAPIError.self) { try client.transactionInfo(transactionID: "1000000000000601") }
        #expect(environment.verification?.code == .environmentNotAllowed)
    }

    @Test("one bad notification among good ones fails the page")
    func badNotificationFailsThePage() throws {
        let fixture = try StandInFixture()
        fixture.addNotification(secondsAgo: 300)
        var tampered = fixture.signer.notification(type: "DID_RENEW", signedDate: Timestamp(milliseconds: Int64(fixture.clock().addingTimeInterval(-200).timeIntervalSince1970 * 1000))!)
        tampered.removeLast(4)
        tampered += tampered.hasSuffix("AAAA") ? "BBBB" : "AAAA"
        fixture.standIn.add(notification: tampered)
        fixture.addNotification(secondsAgo: 100)
        let now = fixture.clock()
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client().notificationHistory(.init(start: now.addingTimeInterval(-3600), end: now))
        }
        #expect(error.code == .unverifiedSignedValue)
        #expect(error.message.contains("notificationHistory[1]"))
    }

    @Test("a notification for another app's Apple id")
    func otherApp() throws {
        let fixture = try StandInFixture()
        fixture.addNotification(secondsAgo: 60)
        let now = fixture.clock()
        let query = AppStoreNotificationHistoryQuery(start: now.addingTimeInterval(-3600), end: now)
        #expect(try fixture.client().notificationHistory(query).count == 1)
        let error = try #require(throws: AppStoreServerAPIError.self) { try fixture.client(appAppleID: 1).notificationHistory(query) }
        #expect(error.code == .unverifiedSignedValue && error.message.contains("app"))
    }

    @Test("renewal info whose original transaction is not the status's")
    func mismatchedRenewalInfo() throws {
        let fixture = try StandInFixture()
        let original = "1000000000000700"
        fixture.addTransaction(id: original, original: original)
        fixture.standIn.setSubscription(originalTransactionID: original,
                                        renewalInfo: fixture.signer.renewalInfo(originalTransactionID: "1000000000000799"), status: 1)
        let error = try #require(throws: AppStoreServerAPIError.self) { try fixture.client().allSubscriptionStatuses(transactionID: original) }
        #expect(error.code == .unverifiedSignedValue)
    }
}
