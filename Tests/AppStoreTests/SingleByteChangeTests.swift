import Foundation
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// For generated tokens, every single-byte change anywhere in the text is refused: each
/// position of the whole token, with a replacement byte drawn per position (base64url
/// characters mostly, so that the change reaches past the alphabet check, and now and
/// then a dot, padding, standard base64's + and /, a space or a brace).
@Suite(.bounded) struct SingleByteChangeTests {
    static let replacements = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let oddities = Array(".=+/ {}\"\\%".utf8)

    /// Every position of `jws`, one changed byte each; returns how many were checked.
    static func sweep(_ jws: String, seed: UInt64, verify: (String) throws -> Any) -> Int {
        var rng = SeededRandom(seed: seed)
        let bytes = Array(jws.utf8)
        for offset in bytes.indices {
            var replacement = rng.chance(0.9) ? rng.pick(replacements) : rng.pick(oddities)
            if replacement == bytes[offset] { replacement = bytes[offset] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A") }
            let changed = replacingByte(in: jws, at: offset, with: replacement)
            if refusal({ try verify(changed) }) == nil {
                Issue.record("offset \(offset) of \(bytes.count): \(UnicodeScalar(bytes[offset])) → \(UnicodeScalar(replacement)) was accepted (seed \(seed.hex))")
            }
        }
        return bytes.count
    }

    /// Swept twice: with signatures checked through EVP, then again once the chain has
    /// been busy enough to get the leaf's precomputed multiples.
    @Test func everyByteOfATransaction() throws {
        let authority = TestCertificateAuthority(name: "Sweep")
        let signer = TestAppStoreSigner(authority: authority)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        let jws = signer.transaction(appAccountToken: UUID())
        _ = try verifier.verifyTransaction(jws)
        let chain = try #require(authority.developmentPolicy.trust.chains.chain(for: .init(leaf: authority.leafDER, intermediate: authority.intermediateDER)))
        let checked = Self.sweep(jws, seed: Property.seed("everyByteOfATransaction", 0)) { try verifier.verifyTransaction($0) }
        #expect(checked == jws.utf8.count)
        // Refused signatures never build the table: only a valid one does.
        #expect(!chain.usesFastPath)
        for _ in 0..<VerifiedChain.fastPathThreshold { _ = try verifier.verifyTransaction(jws) }
        #expect(chain.usesFastPath)
        _ = Self.sweep(jws, seed: Property.seed("everyByteOfATransaction", 1)) { try verifier.verifyTransaction($0) }
        #expect(authority.developmentPolicy.trust.chains.count == 1)
        #expect(refusal { try verifier.verifyTransaction(jws) } == nil)
    }

    @Test func everyByteOfANotificationWithNestedJWS() throws {
        let signer = TestAppStoreSigner()
        let verifier = AppStoreVerifier(policy: signer.developmentPolicy)
        let jws = signer.notification(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: signer.transaction(),
                                      renewal: signer.renewalInfo(originalTransactionID: "2000000000000000"))
        _ = try verifier.verifyNotification(jws)
        _ = Self.sweep(jws, seed: Property.seed("everyByteOfANotificationWithNestedJWS", 0)) { try verifier.verifyNotification($0) }
    }

    @Test func everyByteOfAnXcodeJWS() throws {
        let signer = TestAppStoreSigner.xcode
        let verifier = AppStoreVerifier(policy: signer.developmentPolicy)
        let jws = signer.renewalInfo(originalTransactionID: "1", environment: "Xcode")
        _ = try verifier.verifyRenewalInfo(jws)
        _ = Self.sweep(jws, seed: Property.seed("everyByteOfAnXcodeJWS", 0)) { try verifier.verifyRenewalInfo($0) }
    }

    /// Generated tokens of every kind, at sampled positions with several replacements each.
    @Test func sampledChangesToGeneratedTokens() throws {
        let signer = TestAppStoreSigner()
        let verifier = AppStoreVerifier(policy: signer.developmentPolicy)
        try Property.check("sampledChangesToGeneratedTokens", count: 40) { rng, seed in
            let kind = rng.int(0...2)
            let jws: String
            switch kind {
            case 0: jws = signer.transaction(productID: "p\(rng.int(0...99))", appAccountToken: UUID(), environment: "Sandbox")
            case 1: jws = signer.renewalInfo(originalTransactionID: "\(rng.int(1...9_999_999))", autoRenewStatus: rng.int(0...1))
            default: jws = signer.notification(type: rng.pick(["DID_RENEW", "EXPIRED", "REFUND"]), transaction: signer.transaction())
            }
            _ = try verifier.verifyAny(jws, expectedEnvironment: nil)
            let bytes = Array(jws.utf8)
            for _ in 0..<25 {
                let offset = rng.int(0...(bytes.count - 1))
                var replacement = rng.pick(Self.replacements + Self.oddities)
                if replacement == bytes[offset] { replacement = replacement == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x") }
                let changed = replacingByte(in: jws, at: offset, with: replacement)
                #expect(refusal { try verifier.verifyAny(changed, expectedEnvironment: nil) } != nil, "offset \(offset), seed \(seed.hex)")
            }
        }
    }
}
