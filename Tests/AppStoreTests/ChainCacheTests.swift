import Foundation
import Testing
import TestSupport
@testable import AppStore

/// What is remembered between tokens, and what is not.
@Suite(.bounded) struct ChainCacheTests {
    @Test func aChainIsVerifiedOnceAndSharedByVerifiersOfThePolicy() throws {
        let authority = TestCertificateAuthority(name: "Shared")
        let signer = TestAppStoreSigner(authority: authority)
        #expect(authority.developmentPolicy.trust.chains.count == 0)
        for _ in 0..<5 {
            _ = try AppStoreVerifier(policy: authority.developmentPolicy).verifyTransaction(signer.transaction())
        }
        _ = try AppStoreVerifier(policy: authority.developmentPolicy).verifyNotification(signer.notification(type: "TEST", transaction: signer.transaction()))
        #expect(authority.developmentPolicy.trust.chains.count == 1)
        // A chain that fails is not remembered.
        let stranger = TestAppStoreSigner(authority: TestCertificateAuthority(name: "Stranger"))
        #expect(refusal { try AppStoreVerifier(policy: authority.developmentPolicy).verifyTransaction(stranger.transaction()) } == .untrustedChain)
        #expect(authority.developmentPolicy.trust.chains.count == 1)
    }

    /// A chain verified under one policy does not vouch under another.
    @Test func theCacheBelongsToThePolicysRoots() {
        let authority = TestCertificateAuthority(name: "Policy")
        let signer = TestAppStoreSigner(authority: authority)
        #expect(refusal { try AppStoreVerifier(policy: authority.developmentPolicy).verifyTransaction(signer.transaction()) } == nil)
        #expect(refusal { try AppStoreVerifier(policy: .development(extraRoots: [])).verifyTransaction(signer.transaction()) } == .untrustedChain)
        #expect(refusal { try AppStoreVerifier(policy: .production).verifyTransaction(signer.transaction()) } == .untrustedChain)
    }

    @Test func theOldestEntryGoesAtCapacity() {
        let cache = ChainCache(capacity: 2)
        let leaf = Certificate(der: TestCertificateAuthority.shared.leafDER)!
        let chain = VerifiedChain(leaf: leaf, windows: [])
        cache.insert(chain, for: .init(leaf: [1], intermediate: [2]))
        cache.insert(chain, for: .init(leaf: [1], intermediate: [3]))
        cache.insert(chain, for: .init(leaf: [1], intermediate: [2]))  // already there
        #expect(cache.count == 2)
        cache.insert(chain, for: .init(leaf: [4], intermediate: [2]))
        #expect(cache.count == 2)
        #expect(cache.chain(for: .init(leaf: [1], intermediate: [2])) == nil)
        #expect(cache.chain(for: .init(leaf: [1], intermediate: [3])) != nil)
        #expect(cache.chain(for: .init(leaf: [4], intermediate: [2])) != nil)
        // Byte equality: the same bytes split differently are another key.
        #expect(cache.chain(for: .init(leaf: [4, 2], intermediate: [])) == nil)
    }

    @Test func theHeaderCacheAnswersOnlyForTheExactText() {
        let cache = HeaderCache(capacity: 2)
        let a = Array("header-a".utf8), b = Array("header-b".utf8), c = Array("header-c".utf8)
        a.withUnsafeBufferPointer { cache.insert(header: $0, certificates: [[1]]) }
        b.withUnsafeBufferPointer { cache.insert(header: $0, certificates: [[2]]) }
        #expect(a.withUnsafeBufferPointer { cache.certificates(forHeader: $0) } == [[1]])
        #expect(Array("header-".utf8).withUnsafeBufferPointer { cache.certificates(forHeader: $0) } == nil)
        c.withUnsafeBufferPointer { cache.insert(header: $0, certificates: [[3]]) }
        #expect(a.withUnsafeBufferPointer { cache.certificates(forHeader: $0) } == nil)
        #expect(c.withUnsafeBufferPointer { cache.certificates(forHeader: $0) } == [[3]])
    }

    /// The precomputed path starts only after the threshold and only on a valid signature;
    /// from then on a changed token is still refused.
    @Test func theFastPathStartsWhenTheChainIsBusy() throws {
        let authority = TestCertificateAuthority(name: "Busy")
        let signer = TestAppStoreSigner(authority: authority)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        let jws = signer.transaction()
        for _ in 0..<(VerifiedChain.fastPathThreshold - 1) { _ = try verifier.verifyTransaction(jws) }
        let chain = try #require(authority.developmentPolicy.trust.chains.chain(for: .init(leaf: authority.leafDER, intermediate: authority.intermediateDER)))
        #expect(!chain.usesFastPath)
        var bad = parts(jws)
        bad[2] = parts(signer.transaction())[2]
        #expect(refusal { try verifier.verifyTransaction(joined(bad)) } == .badSignature)
        #expect(!chain.usesFastPath)
        _ = try verifier.verifyTransaction(jws)
        #expect(chain.usesFastPath)
        #expect(refusal { try verifier.verifyTransaction(joined(bad)) } == .badSignature)
        #expect(refusal { try verifier.verifyTransaction(signer.transaction()) } == nil)
    }

    /// Many threads verifying through one policy at once: same answers, no crash.
    @Test func concurrentVerification() async throws {
        let authority = TestCertificateAuthority(name: "Concurrent")
        let signer = TestAppStoreSigner(authority: authority)
        let good = (0..<8).map { _ in signer.transaction() }
        var tampered = parts(good[0])
        tampered[2] = parts(good[1])[2]
        let bad = joined(tampered)
        let policy = authority.developmentPolicy
        let results = await withTaskGroup(of: (Int, Int).self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let verifier = AppStoreVerifier(policy: policy)
                    var accepted = 0, refused = 0
                    for i in 0..<40 {
                        if (try? verifier.verifyTransaction(good[(i + worker) % good.count])) != nil { accepted += 1 }
                        if (try? verifier.verifyTransaction(bad)) == nil { refused += 1 }
                    }
                    return (accepted, refused)
                }
            }
            return await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == (40, 40) })
        #expect(policy.trust.chains.count == 1)
    }
}
