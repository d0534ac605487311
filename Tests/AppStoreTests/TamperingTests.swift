import Crypto
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// Every way of changing a signed token, or of signing it with the wrong certificates,
/// is refused, with the reason it is.
@Suite(.bounded) struct TamperingTests {
    let signer = TestAppStoreSigner()
    var verifier: AppStoreVerifier { AppStoreVerifier(policy: signer.developmentPolicy) }

    @Test func theUntamperedTokenVerifies() {
        #expect(refusal { try verifier.verifyTransaction(signer.transaction()) } == nil)
    }

    @Test(arguments: 0..<8) func oneFlippedBitInTheSignature(bit: Int) {
        var p = parts(signer.transaction())
        var signature = StrictBase64.decode(p[2], .url)!
        signature[(bit * 9) % 64] ^= UInt8(1 << bit)
        p[2] = Base64URL.encode(signature)
        #expect(refusal { try verifier.verifyTransaction(joined(p)) } == .badSignature)
    }

    /// The header re-encoded with another alg but the original signature.
    @Test func aChangedHeaderUnderTheOriginalSignature() {
        var p = parts(signer.transaction())
        let header = decodedPart(p[0])
        p[0] = encodedPart(header.replacingOccurrences(of: "\"ES256\"", with: "\"ES384\""))
        #expect(refusal { try verifier.verifyTransaction(joined(p)) } == .unsupportedAlgorithm)
        // A header member added (the alg kept) breaks the signature.
        p = parts(signer.transaction())
        p[0] = encodedPart("{\"kid\":\"x\"," + decodedPart(p[0]).dropFirst())
        #expect(refusal { try verifier.verifyTransaction(joined(p)) } == .badSignature)
    }

    /// The payload changed (one byte of its JSON), the original signature kept.
    @Test func aChangedPayloadUnderTheOriginalSignature() {
        var p = parts(signer.transaction(productID: "ai.screenrig.plus.monthly"))
        p[1] = encodedPart(decodedPart(p[1]).replacingOccurrences(of: "plus", with: "plut"))
        #expect(refusal { try verifier.verifyTransaction(joined(p)) } == .badSignature)
        // The signature of another valid token is no better.
        var q = parts(signer.transaction(productID: "ai.screenrig.premium.monthly"))
        q[2] = parts(signer.transaction())[2]
        #expect(refusal { try verifier.verifyTransaction(joined(q)) } == .badSignature)
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384", "ES256K", "es256", ""])
    func anyAlgorithmButES256IsRefusedEvenWhenSigned(alg: String) {
        let header = signer.header.replacing(["alg": .string(alg)])
        let jws = signer.sign(payload: signer.transactionPayload(), header: header)
        #expect(refusal { try verifier.verifyTransaction(jws) } == .unsupportedAlgorithm)
    }

    @Test func algMustBeAString() {
        for alg: JSONValue in [.null, 256, ["ES256"]] {
            let jws = signer.sign(payload: signer.transactionPayload(), header: signer.header.replacing(["alg": alg]))
            #expect(refusal { try verifier.verifyTransaction(jws) } == .unsupportedAlgorithm)
        }
        let noAlg = signer.sign(payload: signer.transactionPayload(), header: signer.header.removing("alg"))
        #expect(refusal { try verifier.verifyTransaction(noAlg) } == .unsupportedAlgorithm)
    }

    /// `alg: none` with an empty signature: the classic unsigned token.
    @Test func anUnsignedToken() {
        let payload = encodedPart(signer.transactionPayload().compactText())
        let none = encodedPart(#"{"alg":"none"}"#) + "." + payload + "."
        #expect(refusal { try verifier.verifyTransaction(none) } == .unsupportedAlgorithm)
        // ES256 claimed, no signature.
        let unsigned = Base64URL.encode(Array(signer.header.compactText().utf8)) + "." + payload + "."
        #expect(refusal { try verifier.verifyTransaction(unsigned) } == .badSignature)
    }

    @Test func anHS256TokenMacedWithThePublicCertificate() {
        // The algorithm-confusion attack: an HMAC keyed with public material.
        let header = encodedPart(#"{"alg":"HS256","typ":"JWT"}"#)
        let input = header + "." + encodedPart(signer.transactionPayload().compactText())
        let mac = HMAC.sha256(key: signer.certificates[0], data: Array(input.utf8))
        #expect(refusal { try verifier.verifyTransaction(input + "." + Base64URL.encode(mac)) } == .unsupportedAlgorithm)
    }

    @Test func criticalHeaderParametersAreRefused() {
        let jws = signer.sign(payload: signer.transactionPayload(), header: signer.header.replacing(["crit": ["exp"]]))
        #expect(refusal { try verifier.verifyTransaction(jws) } == .unsupportedAlgorithm)
    }

    @Test func theChainInTheWrongOrder() {
        let authority = TestCertificateAuthority.shared
        for order in [[authority.intermediateDER, authority.leafDER], [authority.intermediateDER, authority.leafDER, authority.rootDER],
                      [authority.leafDER, authority.rootDER], [authority.rootDER, authority.intermediateDER]] {
            let header = x5cHeader(order)
            let jws = signer.sign(payload: signer.transactionPayload(), header: header)
            #expect(refusal { try verifier.verifyTransaction(jws) } == .untrustedChain)
        }
    }

    /// The leaf twice: it is not a CA and cannot issue itself.
    @Test func theLeafAsItsOwnIntermediate() {
        let authority = TestCertificateAuthority.shared
        let header = x5cHeader([authority.leafDER, authority.leafDER])
        #expect(refusal { try verifier.verifyTransaction(signer.sign(payload: signer.transactionPayload(), header: header)) } == .untrustedChain)
    }

    /// A leaf the root signed itself, sent with an intermediate that has the WWDR mark:
    /// OpenSSL finds leaf → root, which is not the chain whose intermediate was checked.
    @Test func aLeafIssuedByTheRootSkippingTheIntermediate() {
        let authority = TestCertificateAuthority(name: "Shortcut", leafIssuedByRoot: true)
        let signer = TestAppStoreSigner(authority: authority)
        let error = failure { try AppStoreVerifier(policy: authority.developmentPolicy).verifyTransaction(signer.transaction()) }
        #expect(error?.code == .untrustedChain)
        #expect(error?.message.contains("leaf, intermediate, root") == true)
    }

    @Test func aLeafWithoutTheReceiptSigningOID() {
        let authority = TestCertificateAuthority(leafHasReceiptSigningOID: false)
        let signer = TestAppStoreSigner(authority: authority)
        let error = failure { try AppStoreVerifier(policy: authority.developmentPolicy).verifyTransaction(signer.transaction()) }
        #expect(error?.code == .missingReceiptSigningOID)
        #expect(error?.message.contains("1.2.840.113635.100.6.11.1") == true)
    }

    @Test func anIntermediateWithoutTheWWDROID() {
        let authority = TestCertificateAuthority(intermediateHasWWDROID: false)
        let signer = TestAppStoreSigner(authority: authority)
        let error = failure { try AppStoreVerifier(policy: authority.developmentPolicy).verifyTransaction(signer.transaction()) }
        #expect(error?.code == .missingWWDROID)
        #expect(error?.message.contains("1.2.840.113635.100.6.2.1") == true)
    }

    /// A chain from a root nobody configured, even one that sends its root along.
    @Test func aChainFromAnotherRoot() {
        let stranger = TestAppStoreSigner(authority: TestCertificateAuthority(name: "Stranger"))
        #expect(refusal { try verifier.verifyTransaction(stranger.transaction()) } == .untrustedChain)
        #expect(refusal { try AppStoreVerifier(policy: .production).verifyTransaction(stranger.transaction()) } == .untrustedChain)
        #expect(refusal { try verifier.verifyNotification(stranger.notification(type: "TEST")) } == .untrustedChain)
    }

    /// The right leaf with another authority's intermediate (same names, other keys).
    @Test func aLeafWithAnIntermediateThatDidNotIssueIt() {
        let twin = TestCertificateAuthority()
        let header = x5cHeader([TestCertificateAuthority.shared.leafDER, twin.intermediateDER])
        #expect(refusal { try verifier.verifyTransaction(signer.sign(payload: signer.transactionPayload(), header: header)) } == .untrustedChain)
    }

    /// The certificates of the trusted chain with a signature by another leaf's key.
    @Test func anotherKeySigningUnderTrustedCertificates() {
        let other = TestCertificateAuthority(name: "Other")
        let forger = TestAppStoreSigner(authority: other)
        let header = encodedPart(signer.header.compactText())
        let input = header + "." + encodedPart(signer.transactionPayload().compactText())
        let jws = input + "." + Base64URL.encode(forger.key.sign(Array(input.utf8)))
        #expect(refusal { try verifier.verifyTransaction(jws) } == .badSignature)
    }

    @Test func aLeafKeyThatIsNotP256() {
        let authority = TestCertificateAuthority(leafCurve: "P-384")
        let signer = TestAppStoreSigner(authority: authority)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction()) } == .unsupportedAlgorithm)
        // Its 96-byte signature cut to ES256's 64 bytes changes nothing.
        var p = parts(signer.transaction())
        p[2] = Base64URL.encode(Array(StrictBase64.decode(p[2], .url)!.prefix(64)))
        #expect(refusal { try verifier.verifyTransaction(joined(p)) } == .unsupportedAlgorithm)
    }

    @Test func aWrongBundle() {
        let other = TestAppStoreSigner(bundleID: "com.example.other")
        let error = failure { try verifier.verifyTransaction(other.transaction()) }
        #expect(error?.code == .bundleMismatch)
        #expect(error?.message.contains("com.example.other") == true)
        #expect(refusal { try verifier.verifyNotification(other.notification(type: "TEST")) } == .bundleMismatch)
        #expect(refusal { try AppStoreVerifier(policy: signer.developmentPolicy, bundleID: "com.example.other").verifyTransaction(other.transaction()) } == nil)
        // Bundle IDs compare exactly.
        let upper = TestAppStoreSigner(bundleID: "AI.screenrig.app")
        #expect(refusal { try verifier.verifyTransaction(upper.transaction()) } == .bundleMismatch)
    }

    /// A notification for our app carrying another app's transaction.
    @Test func aNestedTransactionForAnotherBundle() {
        let other = TestAppStoreSigner(bundleID: "com.example.other")
        let error = failure { try verifier.verifyNotification(signer.notification(type: "SUBSCRIBED", transaction: other.transaction())) }
        #expect(error?.code == .bundleMismatch)
        #expect(error?.message.hasPrefix("signedTransactionInfo: ") == true)
    }

    /// The nested JWS are verified as fully as the notification.
    @Test func aTamperedNestedJWSInAValidNotification() {
        var transaction = parts(signer.transaction())
        transaction[1] = encodedPart(decodedPart(transaction[1]).replacingOccurrences(of: "plus", with: "plut"))
        let error = failure { try verifier.verifyNotification(signer.notification(type: "SUBSCRIBED", transaction: joined(transaction))) }
        #expect(error?.code == .badSignature)
        #expect(error?.message.hasPrefix("signedTransactionInfo: ") == true)
        let stranger = TestAppStoreSigner(authority: TestCertificateAuthority(name: "Stranger"))
        let renewal = stranger.renewalInfo(originalTransactionID: "1")
        let renewalError = failure { try verifier.verifyNotification(signer.notification(type: "SUBSCRIBED", renewal: renewal)) }
        #expect(renewalError?.code == .untrustedChain)
        #expect(renewalError?.message.hasPrefix("signedRenewalInfo: ") == true)
        #expect(refusal { try verifier.verifyNotification(signer.notification(type: "SUBSCRIBED", transaction: "not.a.jws")) } == .malformedJWS)
    }

    /// A payload with a repeated key could read differently elsewhere: refused.
    @Test func aRepeatedKeyInThePayload() {
        let text = signer.transactionPayload(productID: "a").compactText()
        let doubled = String(text.dropLast()) + #","productId":"b"}"#
        let jws = signer.sign(headerText: signer.header.compactText(), payloadText: doubled)
        #expect(refusal { try verifier.verifyTransaction(jws) } == .malformedPayload)
    }
}
