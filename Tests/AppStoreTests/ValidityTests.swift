import Foundation
import LedgerDomain
import Testing
import TestSupport
@testable import AppStore

/// Every certificate must be valid at the payload's signedDate, whatever the date today.
@Suite(.bounded) struct ValidityTests {
    /// A leaf valid during 2025 only, under an authority valid 2020-2040.
    static let authority = TestCertificateAuthority(
        name: "Validity", rootValidity: TestValidity(notBefore: .utc(2020, 1, 1), notAfter: .utc(2040, 1, 1)),
        intermediateValidity: TestValidity(notBefore: .utc(2021, 1, 1), notAfter: .utc(2035, 1, 1)),
        leafValidity: TestValidity(notBefore: .utc(2025, 1, 1), notAfter: .utc(2026, 1, 1)))
    let signer = TestAppStoreSigner(authority: Self.authority)
    var verifier: AppStoreVerifier { AppStoreVerifier(policy: Self.authority.developmentPolicy) }

    @Test func validAtASignedDateInsideTheLeafsWindowEvenAfterItExpired() {
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 6, 1))) } == nil)
        #expect(refusal { try verifier.verifyRenewalInfo(signer.renewalInfo(originalTransactionID: "1", signedDate: .utc(2025, 6, 1))) } == nil)
    }

    @Test func anExpiredLeafAtSignedDate() {
        let error = failure { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2026, 2, 1))) }
        #expect(error?.code == .certificateNotValidAtSignedDate)
        #expect(error?.message.contains("leaf") == true)
        #expect(error?.message.contains("2026-01-01T00:00:00") == true)
    }

    @Test func aLeafNotYetValidAtSignedDate() {
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2024, 12, 31))) } == .certificateNotValidAtSignedDate)
    }

    /// The edges, to the millisecond: notBefore is in, notAfter is out (as OpenSSL has it).
    @Test func theWindowsEdges() {
        let notBefore = Timestamp.utc(2025, 1, 1), notAfter = Timestamp.utc(2026, 1, 1)
        let justBefore = Timestamp(microseconds: notBefore.microseconds - 1000)!
        let lastMillisecond = Timestamp(microseconds: notAfter.microseconds - 1000)!
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: justBefore)) } == .certificateNotValidAtSignedDate)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: notBefore)) } == nil)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: lastMillisecond)) } == nil)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: notAfter)) } == .certificateNotValidAtSignedDate)
    }

    /// A chain verified (and cached) for one token does not let a later token through
    /// once its signedDate is past the leaf's window: each token's date is checked.
    @Test func aCachedChainDoesNotMakeAnExpiredTokenPass() {
        let authority = TestCertificateAuthority(name: "Cached", leafValidity: TestValidity(notBefore: .utc(2025, 1, 1), notAfter: .utc(2026, 1, 1)))
        let signer = TestAppStoreSigner(authority: authority)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 6, 1))) } == nil)
        #expect(authority.developmentPolicy.trust.chains.count == 1)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2026, 6, 1))) } == .certificateNotValidAtSignedDate)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2024, 6, 1))) } == .certificateNotValidAtSignedDate)
        // And the other way round: first refused, then a good date passes.
        let fresh = TestCertificateAuthority(name: "Fresh", leafValidity: TestValidity(notBefore: .utc(2025, 1, 1), notAfter: .utc(2026, 1, 1)))
        let freshSigner = TestAppStoreSigner(authority: fresh)
        let freshVerifier = AppStoreVerifier(policy: fresh.developmentPolicy)
        #expect(refusal { try freshVerifier.verifyTransaction(freshSigner.transaction(signedDate: .utc(2026, 6, 1))) } == .certificateNotValidAtSignedDate)
        #expect(refusal { try freshVerifier.verifyTransaction(freshSigner.transaction(signedDate: .utc(2025, 6, 1))) } == nil)
    }

    @Test func anExpiredIntermediateAtSignedDate() {
        let authority = TestCertificateAuthority(
            name: "Intermediate", intermediateValidity: TestValidity(notBefore: .utc(2021, 1, 1), notAfter: .utc(2025, 3, 1)),
            leafValidity: TestValidity(notBefore: .utc(2025, 1, 1), notAfter: .utc(2026, 1, 1)))
        let signer = TestAppStoreSigner(authority: authority)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 2, 1))) } == nil)
        let error = failure { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 6, 1))) }
        #expect(error?.code == .certificateNotValidAtSignedDate)
        #expect(error?.message.contains("intermediate") == true)
    }

    /// The root's window counts too, from the cache as well as on a first verification.
    @Test func anExpiredRootAtSignedDate() {
        let authority = TestCertificateAuthority(
            name: "Root", rootValidity: TestValidity(notBefore: .utc(2020, 1, 1), notAfter: .utc(2025, 4, 1)),
            intermediateValidity: TestValidity(notBefore: .utc(2021, 1, 1), notAfter: .utc(2030, 1, 1)),
            leafValidity: TestValidity(notBefore: .utc(2025, 1, 1), notAfter: .utc(2026, 1, 1)))
        let signer = TestAppStoreSigner(authority: authority)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 6, 1))) } == .certificateNotValidAtSignedDate)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 2, 1))) } == nil)
        let error = failure { try verifier.verifyTransaction(signer.transaction(signedDate: .utc(2025, 6, 1))) }
        #expect(error?.code == .certificateNotValidAtSignedDate)
        #expect(error?.message.contains("root") == true)
    }

    /// The nested JWS of a notification are checked at their own signedDate.
    @Test func aNestedTransactionSignedAfterTheLeafExpired() {
        let expiredTransaction = signer.transaction(signedDate: .utc(2026, 2, 1))
        let error = failure { try verifier.verifyNotification(signer.notification(type: "DID_RENEW", transaction: expiredTransaction, signedDate: .utc(2025, 6, 1))) }
        #expect(error?.code == .certificateNotValidAtSignedDate)
        #expect(error?.message.hasPrefix("signedTransactionInfo: ") == true)
    }

    /// The explicit instant of tests replaces signedDate for the chain only.
    @Test func anExplicitVerificationInstant() throws {
        let jws = signer.transaction(signedDate: .utc(2025, 6, 1))
        var atLater = verifier
        atLater.verificationTime = .utc(2027, 1, 1)
        #expect(refusal { try atLater.verifyTransaction(jws) } == .certificateNotValidAtSignedDate)
        atLater.verificationTime = .utc(2025, 12, 31)
        #expect(try atLater.verifyTransaction(jws).signedDate == .utc(2025, 6, 1))
    }
}
