import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// Tokens signed by the test authority verify, kind by kind, and say what was signed.
@Suite(.bounded) struct ValidTokenTests {
    let signer = TestAppStoreSigner()
    var verifier: AppStoreVerifier { AppStoreVerifier(policy: signer.developmentPolicy) }

    @Test func aTransactionVerifiesAndExposesItsFields() throws {
        let token = UUID()
        let signedDate = TestClock.now
        let jws = signer.transaction(productID: "ai.screenrig.premium.monthly", appAccountToken: token, environment: "Sandbox",
                                     signedDate: signedDate, transactionID: "2000000000000001", originalTransactionID: "2000000000000000")
        let transaction = try verifier.verifyTransaction(jws)
        #expect(transaction.productID == "ai.screenrig.premium.monthly")
        #expect(transaction.appAccountToken == token)
        #expect(transaction.environment == "Sandbox")
        #expect(transaction.signedDate == signedDate)
        #expect(transaction.purchaseDate == signedDate)
        #expect(transaction.expiresDate == signedDate.adding(days: 30))
        #expect(transaction.transactionID == "2000000000000001")
        #expect(transaction.originalTransactionID == "2000000000000000")
        #expect(transaction.bundleID == "ai.screenrig.app")
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.transactionReason == "PURCHASE")
        #expect(transaction.subscriptionGroupIdentifier == "21000001")
        #expect(transaction.price == 9990)
        #expect(transaction.currency == "USD")
        #expect(transaction.revocationDate == nil)
        #expect(transaction.payload["storefront"] == "USA")
    }

    /// appAccountToken is a UUID whatever the letter case Apple writes it in.
    @Test func anUppercaseAccountTokenReadsAsTheSameUUID() throws {
        let token = UUID()
        let jws = signer.transaction(extra: ["appAccountToken": .string(token.uuidString.uppercased())])
        #expect(try verifier.verifyTransaction(jws).appAccountToken == token)
        let empty = signer.transaction(extra: ["appAccountToken": ""])
        #expect(try verifier.verifyTransaction(empty).appAccountToken == nil)
    }

    @Test func aRevokedTransactionSaysWhen() throws {
        let revoked = TestClock.now
        let transaction = try verifier.verifyTransaction(signer.transaction(revocationDate: revoked))
        #expect(transaction.revocationDate == revoked)
        #expect(transaction.revocationReason == 0)
    }

    @Test func renewalInfoVerifies() throws {
        let renewal = try verifier.verifyRenewalInfo(signer.renewalInfo(
            originalTransactionID: "2000000000000000", productID: "ai.screenrig.premium.monthly",
            autoRenewProductID: "ai.screenrig.plus.monthly", autoRenewStatus: 0, environment: "Sandbox"))
        #expect(renewal.originalTransactionID == "2000000000000000")
        #expect(renewal.productID == "ai.screenrig.premium.monthly")
        #expect(renewal.autoRenewProductID == "ai.screenrig.plus.monthly")
        #expect(renewal.autoRenewStatus == 0)
        #expect(renewal.environment == "Sandbox")
        #expect(renewal.renewalDate == renewal.signedDate.adding(days: 30))
    }

    @Test func aNotificationVerifiesWithItsNestedTransactionAndRenewalInfo() throws {
        let transactionJWS = signer.transaction(transactionID: "2000000000000009", originalTransactionID: "2000000000000000")
        let renewalJWS = signer.renewalInfo(originalTransactionID: "2000000000000000")
        let id = UUID()
        let notification = try verifier.verifyNotification(signer.notification(
            type: "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", transaction: transactionJWS, renewal: renewalJWS,
            notificationUUID: id))
        #expect(notification.notificationType == "DID_CHANGE_RENEWAL_PREF")
        #expect(notification.subtype == "DOWNGRADE")
        #expect(notification.notificationUUID == id.uuidString.lowercased())
        #expect(notification.version == "2.0")
        #expect(notification.environment == "Sandbox")
        #expect(notification.bundleID == "ai.screenrig.app")
        #expect(notification.appAppleID == 6_450_000_000)
        #expect(notification.status == 1)
        #expect(notification.transaction == (try verifier.verifyTransaction(transactionJWS)))
        #expect(notification.renewalInfo == (try verifier.verifyRenewalInfo(renewalJWS)))
    }

    @Test func aNotificationWithoutNestedJWSVerifies() throws {
        let notification = try verifier.verifyNotification(signer.notification(type: "TEST"))
        #expect(notification.transaction == nil)
        #expect(notification.renewalInfo == nil)
    }

    /// Apple's summary notifications (RENEWAL_EXTENSION) carry the app in `summary`.
    @Test func aSummaryNotificationNamesItsAppInSummary() throws {
        let payload: JSONValue = [
            "notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY", "notificationUUID": "a3a3b7ae-3bd8-4b98-a83d-e5f4380aeaa2",
            "version": "2.0", "signedDate": .integer(TestClock.now.microseconds / 1000),
            "summary": ["bundleId": "ai.screenrig.app", "environment": "Sandbox", "appAppleId": 1, "requestIdentifier": "x"],
        ]
        let notification = try verifier.verifyNotification(signer.sign(payload: payload))
        #expect(notification.environment == "Sandbox")
        #expect(notification.bundleID == "ai.screenrig.app")
        let wrong = payload.replacing(["summary": ["bundleId": "com.example.other", "environment": "Sandbox"]])
        #expect(refusal { try verifier.verifyNotification(signer.sign(payload: wrong)) } == .bundleMismatch)
    }

    @Test func verifyAnyTellsTheThreeKindsApart() throws {
        let transactionJWS = signer.transaction()
        let renewalJWS = signer.renewalInfo(originalTransactionID: "1")
        let notificationJWS = signer.notification(type: "SUBSCRIBED", transaction: transactionJWS, renewal: renewalJWS)
        #expect(try verifier.verifyAny(transactionJWS, expectedEnvironment: nil).kind == "transaction")
        #expect(try verifier.verifyAny(renewalJWS, expectedEnvironment: nil).kind == "renewal info")
        let verified = try verifier.verifyAny(notificationJWS, expectedEnvironment: "Sandbox")
        guard case .notification(let notification) = verified else { Issue.record("not a notification"); return }
        #expect(notification.transaction != nil)
        // The decoded payload shows the nested ones decoded in place.
        #expect(verified.decodedPayload["data"]?["signedTransactionInfo"]?["productId"] == "ai.screenrig.plus.monthly")
        #expect(verified.decodedPayload["data"]?["signedRenewalInfo"]?["originalTransactionId"] == "1")
        #expect(AppStoreVerifier.unverifiedPayload(of: notificationJWS) == verified.decodedPayload)
    }

    /// A payload of one kind is never accepted as another.
    @Test func oneKindIsNotTakenForAnother() throws {
        let transactionJWS = signer.transaction()
        let renewalJWS = signer.renewalInfo(originalTransactionID: "1")
        let notificationJWS = signer.notification(type: "TEST")
        #expect(refusal { try verifier.verifyRenewalInfo(transactionJWS) } == .malformedPayload)
        #expect(refusal { try verifier.verifyTransaction(renewalJWS) } == .malformedPayload)
        #expect(refusal { try verifier.verifyNotification(transactionJWS) } == .malformedPayload)
        #expect(refusal { try verifier.verifyTransaction(notificationJWS) } == .malformedPayload)
        #expect(refusal { try verifier.verifyRenewalInfo(notificationJWS) } == .malformedPayload)
        #expect(refusal { try verifier.verifyAny(signer.sign(payload: ["signedDate": .integer(TestClock.now.microseconds / 1000)]), expectedEnvironment: nil) } == .malformedPayload)
    }

    /// Apple sends the root as well; without it the chain is the same.
    @Test func theRootMayBeLeftOutOfX5c() throws {
        let twoCertificates = TestAppStoreSigner(includingRoot: false)
        #expect(twoCertificates.certificates.count == 2)
        #expect(refusal { try verifier.verifyTransaction(twoCertificates.transaction()) } == nil)
    }

    /// What stands in third place is not looked at: only configured roots are trusted.
    @Test func aThirdCertificateIsIgnored() throws {
        let other = TestCertificateAuthority(name: "Other")
        let header = x5cHeader([signer.certificates[0], signer.certificates[1], other.rootDER])
        let jws = signer.sign(payload: signer.transactionPayload(), header: header)
        #expect(refusal { try verifier.verifyTransaction(jws) } == nil)
    }

    /// Unknown header members (typ, kid) and payload members are allowed, as Apple may add some.
    @Test func unknownMembersAreIgnored() throws {
        var header = signer.header
        header = header.replacing(["typ": "JWT", "kid": "abc"])
        let jws = signer.sign(payload: signer.transactionPayload(extra: ["somethingNew": ["a": 1]]), header: header)
        #expect(try verifier.verifyTransaction(jws).payload["somethingNew"]?["a"] == 1)
    }

    @Test func theTransactionInitReadsAStoredPayload() throws {
        let payload = signer.transactionPayload(productID: "p")
        #expect(try AppStoreTransaction(payload: payload).productID == "p")
        #expect(throws: AppStoreError.self) { try AppStoreTransaction(payload: ["productId": "p"]) }
    }
}
