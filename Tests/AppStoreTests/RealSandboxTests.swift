import Foundation
import LedgerDomain
import Testing
import TestSupport
@testable import AppStore

/// The real payloads Apple signed in the Sandbox in 2025 (../shared/testdata/apple), under
/// the production policy: only Apple Root CA - G3 is trusted there.
@Suite(.needsSharedData, .bounded)
struct RealSandboxTests {
    static let notificationBundle = "com.loki-project.loki-messenger"
    static let transactionBundle = "com.goodheartapp"
    static let expiredLeafFile = "transaction_expired_leaf_goodheart.jws"

    @Test func thereAreFifteenFiles() throws {
        let files = try SharedTestData.realSandbox()
        #expect(files.count == 15)
        #expect(files.filter { $0.name.hasPrefix("notif_") }.count == 14)
    }

    @Test func everyNotificationVerifiesWithItsBundleUnderProduction() throws {
        let verifier = AppStoreVerifier(policy: .production, bundleID: Self.notificationBundle)
        for (name, jws) in try SharedTestData.realSandbox() where name.hasPrefix("notif_") {
            let notification: AppStoreNotification
            do { notification = try verifier.verifyNotification(jws) } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            // notif_TYPE_SUBTYPE_xxxxxx.jws, SUBTYPE NONE for none.
            let stem = name.dropFirst("notif_".count).dropLast(".jws".count + 7)
            let expected = notification.notificationType + "_" + (notification.subtype ?? "NONE")
            #expect(String(stem) == expected, "\(name)")
            #expect(notification.environment == "Sandbox")
            #expect(notification.bundleID == Self.notificationBundle)
            #expect(notification.version == "2.0")
            #expect(notification.appAppleID == 1_470_168_868)
            let transaction = try #require(notification.transaction, "\(name)")
            let renewal = try #require(notification.renewalInfo, "\(name)")
            #expect(["com.getsession.org.pro_sub", "com.getsession.org.pro_sub_3_months"].contains(transaction.productID))
            #expect(transaction.appAccountToken == nil)
            #expect(transaction.environment == "Sandbox")
            #expect(transaction.type == "Auto-Renewable Subscription")
            #expect(renewal.originalTransactionID == transaction.originalTransactionID)
            #expect(renewal.environment == "Sandbox")
        }
    }

    @Test func theTransactionVerifiesWithItsBundleAtItsSignedDate() throws {
        let jws = try #require(SharedTestData.realSandbox().first { $0.name == Self.expiredLeafFile }).jws
        let transaction = try AppStoreVerifier(policy: .production, bundleID: Self.transactionBundle).verifyTransaction(jws)
        #expect(transaction.productID == "gh_super_good_ticket_1")
        #expect(transaction.type == "Consumable")
        #expect(transaction.transactionID == "2000000847061981")
        #expect(transaction.signedDate == Timestamp(milliseconds: 1_739_161_772_561))
        #expect(transaction.purchaseDate == Timestamp(milliseconds: 1_738_645_560_000))
        #expect(transaction.price == 230_000)
        #expect(transaction.currency == "JPY")
        #expect(transaction.expiresDate == nil)
    }

    /// Its leaf expired on 2025-10-11: checked now it fails, at its signedDate it passes.
    @Test func theExpiredLeafFailsNowAndPassesAtItsSignedDate() throws {
        let jws = try #require(SharedTestData.realSandbox().first { $0.name == Self.expiredLeafFile }).jws
        let now = verifier(.production, bundleID: Self.transactionBundle, at: TestClock.now)
        let error = try #require(failure { try now.verifyTransaction(jws) })
        #expect(error.code == .certificateNotValidAtSignedDate)
        #expect(error.message.contains("leaf"))
        let atSignedDate = verifier(.production, bundleID: Self.transactionBundle, at: Timestamp(milliseconds: 1_739_161_772_561))
        #expect(refusal { try atSignedDate.verifyTransaction(jws) } == nil)
        // Just after the leaf's notAfter (2025-10-11T19:51:52Z) it is refused, just before accepted.
        let justAfter = verifier(.production, bundleID: Self.transactionBundle, at: Timestamp(iso8601: "2025-10-11T19:51:52Z"))
        #expect(refusal { try justAfter.verifyTransaction(jws) } == .certificateNotValidAtSignedDate)
        let justBefore = verifier(.production, bundleID: Self.transactionBundle, at: Timestamp(iso8601: "2025-10-11T19:51:51.999Z"))
        #expect(refusal { try justBefore.verifyTransaction(jws) } == nil)
    }

    @Test func theyFailWithAnotherBundle() throws {
        let verifier = AppStoreVerifier(policy: .production)
        for (name, jws) in try SharedTestData.realSandbox() {
            let code = refusal { try verifier.verifyAny(jws, expectedEnvironment: nil) }
            #expect(code == .bundleMismatch, "\(name)")
        }
    }

    @Test func verifyAnyTellsTheKindsApartAndChecksTheExactEnvironment() throws {
        for (name, jws) in try SharedTestData.realSandbox() {
            let bundle = name.hasPrefix("notif_") ? Self.notificationBundle : Self.transactionBundle
            let verifier = AppStoreVerifier(policy: .production, bundleID: bundle)
            let verified = try verifier.verifyAny(jws, expectedEnvironment: "Sandbox")
            #expect(verified.kind == (name.hasPrefix("notif_") ? "notification" : "transaction"))
            #expect(refusal { try verifier.verifyAny(jws, expectedEnvironment: "Production") } == .environmentNotAllowed, "\(name)")
            if case .notification(let notification) = verified {
                // Each nested JWS verifies on its own, as the kind it is.
                let data = try #require(notification.payload["data"])
                let transactionJWS = try #require(data["signedTransactionInfo"]?.stringValue)
                let renewalJWS = try #require(data["signedRenewalInfo"]?.stringValue)
                #expect(try verifier.verifyTransaction(transactionJWS) == notification.transaction)
                #expect(try verifier.verifyRenewalInfo(renewalJWS) == notification.renewalInfo)
                #expect(try verifier.verifyAny(renewalJWS, expectedEnvironment: nil).kind == "renewal info")
                // The decoded form replaces the nested JWS by their payloads.
                #expect(verified.decodedPayload["data"]?["signedTransactionInfo"] == notification.transaction?.payload)
                #expect(AppStoreVerifier.unverifiedPayload(of: jws) == verified.decodedPayload)
            }
        }
    }

    /// A development policy trusts G3 as well.
    @Test func theyVerifyOutsideProductionToo() throws {
        let verifier = AppStoreVerifier(policy: .development(extraRoots: []), bundleID: Self.notificationBundle)
        for (name, jws) in try SharedTestData.realSandbox() where name.hasPrefix("notif_") {
            #expect(refusal { try verifier.verifyNotification(jws) } == nil, "\(name)")
        }
    }
}
