import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// T3's environments: Production only in production, Sandbox everywhere, Xcode outside
/// production only; and Xcode's self-signed certificate trusted only where configured.
@Suite(.bounded) struct EnvironmentPolicyTests {
    let signer = TestAppStoreSigner()

    struct Case: Sendable, CustomTestStringConvertible {
        var environment: String
        var production: Bool
        var accepted: Bool
        var testDescription: String { "\(environment) in \(production ? "production" : "development")" }
    }

    static let matrix = [
        Case(environment: "Production", production: true, accepted: true),
        Case(environment: "Sandbox", production: true, accepted: true),
        Case(environment: "Xcode", production: true, accepted: false),
        Case(environment: "Production", production: false, accepted: false),
        Case(environment: "Sandbox", production: false, accepted: true),
        Case(environment: "Xcode", production: false, accepted: true),
        Case(environment: "LocalTesting", production: true, accepted: false),
        Case(environment: "LocalTesting", production: false, accepted: false),
        Case(environment: "sandbox", production: false, accepted: false),
    ]

    /// With a chain the policy trusts, so only the environment decides. (Production proper
    /// trusts G3 alone; a production policy trusting the test root is made for this.)
    @Test(arguments: matrix) func environmentMatrix(_ c: Case) {
        let policy = c.production ? productionPolicy(trusting: [TestCertificateAuthority.shared.rootDER]) : signer.developmentPolicy
        let verifier = AppStoreVerifier(policy: policy)
        let expected: AppStoreError.Code? = c.accepted ? nil : .environmentNotAllowed
        #expect(refusal { try verifier.verifyTransaction(signer.transaction(environment: c.environment)) } == expected)
        #expect(refusal { try verifier.verifyRenewalInfo(signer.renewalInfo(originalTransactionID: "1", environment: c.environment)) } == expected)
        #expect(refusal { try verifier.verifyNotification(signer.notification(type: "TEST", environment: c.environment)) } == expected)
        let nested = signer.notification(type: "SUBSCRIBED", transaction: signer.transaction(environment: c.environment), environment: "Sandbox")
        #expect(refusal { try verifier.verifyNotification(nested) } == expected)
    }

    @Test func thePoliciesSayWhatTheyAccept() {
        #expect(AppStoreEnvironmentPolicy.production.isProduction)
        #expect(AppStoreEnvironmentPolicy.production.allowedEnvironments == ["Production", "Sandbox"])
        #expect(AppStoreEnvironmentPolicy.production.trust.roots.count == 1)
        let development = AppStoreEnvironmentPolicy.development(extraRoots: [TestCertificateAuthority.shared.rootDER, [1, 2, 3]])
        #expect(!development.isProduction)
        #expect(development.allowedEnvironments == ["Sandbox", "Xcode"])
        // G3 plus the one extra root that parsed; the garbage entry is left out.
        #expect(development.trust.roots.count == 2)
    }

    /// The production policy trusts G3 only: the test CA is refused there.
    @Test func productionDoesNotTrustTheTestRoot() {
        #expect(refusal { try AppStoreVerifier(policy: .production).verifyTransaction(signer.transaction()) } == .untrustedChain)
    }

    @Test func anExactEnvironment() throws {
        let verifier = AppStoreVerifier(policy: signer.developmentPolicy)
        let sandbox = signer.transaction(environment: "Sandbox")
        #expect(try verifier.verifyAny(sandbox, expectedEnvironment: "Sandbox").kind == "transaction")
        let error = failure { try verifier.verifyAny(sandbox, expectedEnvironment: "Production") }
        #expect(error?.code == .environmentNotAllowed)
        #expect(error?.message.contains("Sandbox") == true)
        // Nested JWS must name it too.
        let mixed = signer.notification(type: "SUBSCRIBED", transaction: signer.transaction(environment: "Production"), environment: "Sandbox")
        #expect(refusal { try verifier.verifyAny(mixed, expectedEnvironment: "Sandbox") } == .environmentNotAllowed)
        // Outside production a nested Production payload is refused by the policy itself (T3).
        #expect(refusal { try verifier.verifyAny(mixed, expectedEnvironment: nil) } == .environmentNotAllowed)
        let production = AppStoreVerifier(policy: productionPolicy(trusting: [TestCertificateAuthority.shared.rootDER]))
        #expect(refusal { try production.verifyAny(mixed, expectedEnvironment: nil) } == nil)
        // An exact environment the policy would refuse is still refused in production.
        #expect(refusal { try production.verifyAny(signer.transaction(environment: "Xcode"), expectedEnvironment: "Xcode") } == .environmentNotAllowed)
    }

    // MARK: - Xcode

    @Test func anXcodeJWSIsAcceptedOutsideProductionWhenItsCertificateIsConfigured() throws {
        let xcode = TestAppStoreSigner.xcode
        #expect(xcode.certificates.count == 1)
        let verifier = AppStoreVerifier(policy: xcode.developmentPolicy)
        let transaction = try verifier.verifyTransaction(xcode.transaction(environment: "Xcode"))
        #expect(transaction.environment == "Xcode")
        #expect(refusal { try verifier.verifyRenewalInfo(xcode.renewalInfo(originalTransactionID: "1", environment: "Xcode")) } == nil)
        let notification = xcode.notification(type: "SUBSCRIBED", transaction: xcode.transaction(environment: "Xcode"), environment: "Xcode")
        #expect(try verifier.verifyNotification(notification).transaction?.environment == "Xcode")
    }

    @Test func anXcodeJWSIsRefusedWhenItsCertificateIsNotConfigured() {
        let xcode = TestAppStoreSigner.xcode
        // Development, but trusting another Xcode certificate, or only the test CA.
        for policy in [TestXcodeCertificate().developmentPolicy, signer.developmentPolicy, .development(extraRoots: [])] {
            #expect(refusal { try AppStoreVerifier(policy: policy).verifyTransaction(xcode.transaction(environment: "Xcode")) } == .untrustedChain)
        }
    }

    /// Never in production, even by a policy that would list its certificate.
    @Test func anXcodeJWSIsNeverAcceptedInProduction() {
        let xcode = TestAppStoreSigner.xcode
        let jws = xcode.transaction(environment: "Xcode")
        #expect(refusal { try AppStoreVerifier(policy: .production).verifyTransaction(jws) } == .untrustedChain)
        let listing = AppStoreVerifier(policy: productionPolicy(trusting: [TestXcodeCertificate.shared.der]))
        #expect(refusal { try listing.verifyTransaction(jws) } == .untrustedChain)
    }

    /// Xcode's certificate vouches for Xcode payloads only.
    @Test func anXcodeCertificateCannotSignForProductionOrSandbox() {
        let xcode = TestAppStoreSigner.xcode
        let verifier = AppStoreVerifier(policy: xcode.developmentPolicy)
        for environment in ["Production", "Sandbox"] {
            #expect(refusal { try verifier.verifyTransaction(xcode.transaction(environment: environment)) } == .environmentNotAllowed)
        }
    }

    /// A configured root that is a CA is not an Xcode certificate: its key signs nothing.
    @Test func aSingleCertificateThatIsACARootButDidNotSign() {
        let root = TestCertificateAuthority.shared.rootDER
        let jws = signer.sign(payload: signer.transactionPayload(environment: "Xcode"), header: x5cHeader([root]))
        #expect(refusal { try AppStoreVerifier(policy: signer.developmentPolicy).verifyTransaction(jws) } == .badSignature)
    }

    /// An expired Xcode certificate at signedDate is refused like any other.
    @Test func anExpiredXcodeCertificate() {
        let old = TestXcodeCertificate(validity: TestValidity(notBefore: .utc(2020, 1, 1), notAfter: .utc(2021, 1, 1)))
        let xcode = TestAppStoreSigner(xcode: old)
        let verifier = AppStoreVerifier(policy: old.developmentPolicy)
        #expect(refusal { try verifier.verifyTransaction(xcode.transaction(environment: "Xcode")) } == .certificateNotValidAtSignedDate)
        #expect(refusal { try verifier.verifyTransaction(xcode.transaction(environment: "Xcode", signedDate: .utc(2020, 6, 1))) } == nil)
    }
}
