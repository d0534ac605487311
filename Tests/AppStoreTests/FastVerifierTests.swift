import Crypto
import Foundation
import Testing
import TestSupport
@testable import AppStore

/// The precomputed-multiples path accepts exactly what OpenSSL's EVP_PKEY_verify accepts.
@Suite(.bounded) struct FastVerifierTests {
    static let authority = TestCertificateAuthority(name: "Fast")
    let leaf = Certificate(der: Self.authority.leafDER)!

    /// P-256's group order n, big-endian.
    static let order: [UInt8] = Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")!

    /// n − x for a 32-byte big-endian x < n.
    static func orderMinus(_ x: some Collection<UInt8>) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for (i, (a, b)) in zip(order, Array(x)).enumerated().reversed() {
            let difference = Int(a) - Int(b) - borrow
            result[i] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }

    func both(_ message: [UInt8], _ signature: [UInt8], _ fast: P256FastVerifier) -> (evp: Bool, fast: Bool) {
        message.withUnsafeBufferPointer { m in
            (leaf.verifyES256(message: m, signature: signature), fast.verify(message: m, signature: signature))
        }
    }

    @Test func theyAgreeOnGeneratedSignatures() throws {
        let fast = try #require(leaf.makeFastVerifier())
        try Property.check("fastVerifierAgrees", count: 400) { rng, seed in
            let message = (0..<rng.int(0...300)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var signature = Self.authority.leafKey.sign(message)
            var expectValid = true
            switch rng.int(0...5) {
            case 0: break
            case 1: signature[rng.int(0...63)] ^= UInt8(1 << rng.int(0...7)); expectValid = false
            case 2:
                var changed = message + [1]
                changed[rng.int(0...(changed.count - 1))] ^= 0x80
                let result = both(changed, signature, fast)
                #expect(result.evp == result.fast, "seed \(seed.hex)")
                #expect(!result.fast, "seed \(seed.hex)")
                return
            case 3: signature = Array(signature[32...]) + Array(signature[..<32]); expectValid = false  // s‖r
            case 4: signature = Array(signature[..<32]) + Self.orderMinus(signature[32...])  // (r, n − s): also valid
            default: signature = Self.authority.leafKey.sign(message + [0]); expectValid = false  // another message's
            }
            let result = both(message, signature, fast)
            #expect(result.evp == result.fast, "seed \(seed.hex)")
            #expect(result.fast == expectValid, "seed \(seed.hex)")
        }
    }

    @Test func theyAgreeOnOutOfRangeValues() throws {
        let fast = try #require(leaf.makeFastVerifier())
        let message = Array("header.payload".utf8)
        let good = Self.authority.leafKey.sign(message)
        let r = Array(good[..<32]), s = Array(good[32...])
        let zero = [UInt8](repeating: 0, count: 32), ones = [UInt8](repeating: 0xFF, count: 32)
        let one = zero.dropLast() + [1]
        for signature in [zero + s, r + zero, zero + zero, Self.order + s, r + Self.order, ones + s, r + ones, ones + ones,
                          Array(one) + s, r + Array(one), Self.orderMinus(one) + s, r + Self.orderMinus(one)] {
            let result = both(message, signature, fast)
            #expect(result.evp == result.fast)
            #expect(!result.fast)
        }
        #expect(both(message, good, fast) == (true, true))
    }

    /// The P-384 leaf of a test authority gets no fast verifier.
    @Test func onlyP256Keys() {
        let other = TestCertificateAuthority(name: "P384", leafCurve: "P-384")
        #expect(Certificate(der: other.leafDER)?.makeFastVerifier() == nil)
        #expect(Certificate(der: other.rootDER)?.makeFastVerifier() != nil)
    }
}
