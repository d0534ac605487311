import Crypto
import Foundation
import Testing
import TestSupport
@testable import AppStore

/// A promotional offer's payload and signature as Apple's StoreKit documentation
/// ("Generating a signature for promotional offers") has them, checked against texts
/// written out by hand and against OpenSSL's own verification (`ReferenceECDSA`), never
/// against the code that signs.
@Suite("Promotional offer signatures: Apple's payload, signed ECDSA P-256 in DER", .bounded)
struct PromotionalOfferSignatureTests {
    static let token = UUID(uuidString: "5C0D6E4E-9A1B-4C2D-8E3F-A0B1C2D3E4F5")!
    static let nonce = UUID(uuidString: "D1E2F3A4-B5C6-4D7E-8F90-A1B2C3D4E5F6")!

    static func signer(_ key: AppStoreSigningKey = AppStoreSigningKey()) throws -> PromotionalOfferSigner {
        try PromotionalOfferSigner(bundleID: "ai.screenrig.app", keyID: "OFFER12345", key: key)
    }

    @Test("the payload is the seven values in Apple's order, joined by U+2063, the token and nonce in lower case")
    func payloadIsApplesSevenValuesJoinedByTheInvisibleSeparator() {
        let payload = PromotionalOfferPayload(bundleID: "ai.screenrig.app", keyID: "OFFER12345", productID: "ai.screenrig.pro.monthly",
                                              offerID: "win_back_50", appAccountToken: Self.token, nonce: Self.nonce,
                                              timestamp: 1_763_208_000_123)
        let expected = "ai.screenrig.app\u{2063}OFFER12345\u{2063}ai.screenrig.pro.monthly\u{2063}win_back_50\u{2063}"
            + "5c0d6e4e-9a1b-4c2d-8e3f-a0b1c2d3e4f5\u{2063}d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6\u{2063}1763208000123"
        #expect(payload.text == expected)
        // U+2063 is E2 81 A3 in UTF-8: six of them, and no other separator.
        let bytes = payload.bytes
        let separators = (0..<(bytes.count - 2)).filter { bytes[$0] == 0xE2 && bytes[$0 + 1] == 0x81 && bytes[$0 + 2] == 0xA3 }
        #expect(separators.count == 6)
        #expect(bytes == Array(expected.utf8))
        #expect(!payload.text.contains("|") && !payload.text.contains(" "))
    }

    @Test("no app account token signs an empty value between the offer and the nonce")
    func noAccountTokenIsAnEmptyValue() {
        let payload = PromotionalOfferPayload(bundleID: "b.c", keyID: "OFFER12345", productID: "p", offerID: "o", appAccountToken: nil,
                                              nonce: Self.nonce, timestamp: 0)
        #expect(payload.text == "b.c\u{2063}OFFER12345\u{2063}p\u{2063}o\u{2063}\u{2063}d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6\u{2063}0")
    }

    @Test("the signature is DER and verifies with the key's public half over the payload, and over nothing else")
    func signatureVerifiesWithThePublicKeyOverThePayload() throws {
        let key = AppStoreSigningKey()
        let publicKey = try #require(ReferenceECDSA.publicKey(ofPKCS8: key.pkcs8DER))
        let signature = try Self.signer(key).sign(productID: "ai.screenrig.pro.monthly", offerID: "win_back_50",
                                                  appAccountToken: Self.token, nonce: Self.nonce, timestamp: 1_763_208_000_123)
        let written = "ai.screenrig.app\u{2063}OFFER12345\u{2063}ai.screenrig.pro.monthly\u{2063}win_back_50\u{2063}"
            + "5c0d6e4e-9a1b-4c2d-8e3f-a0b1c2d3e4f5\u{2063}d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6\u{2063}1763208000123"
        let der = try #require(Data(base64Encoded: signature.base64).map(Array.init))
        #expect(der == signature.der)
        #expect(ReferenceECDSA.integers(ofDER: der) != nil, "a DER ECDSA-Sig-Value: \(Hex.encode(der))")
        #expect(ReferenceECDSA.verify(derSignature: der, of: Array(written.utf8), publicKey: publicKey))
        // What StoreKit is handed back matches what was signed.
        #expect(signature.keyID == "OFFER12345" && signature.nonce == "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6"
                && signature.timestamp == 1_763_208_000_123)
        // The check can fail: upper-case UUIDs, another order, a bar for the separator, another key.
        let upper = written.replacingOccurrences(of: "5c0d6e4e-9a1b-4c2d-8e3f-a0b1c2d3e4f5", with: Self.token.uuidString)
        let swapped = "ai.screenrig.app\u{2063}OFFER12345\u{2063}win_back_50\u{2063}ai.screenrig.pro.monthly\u{2063}"
            + "5c0d6e4e-9a1b-4c2d-8e3f-a0b1c2d3e4f5\u{2063}d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6\u{2063}1763208000123"
        let barred = written.replacingOccurrences(of: "\u{2063}", with: "|")
        for other in [upper, swapped, barred] {
            #expect(!ReferenceECDSA.verify(derSignature: der, of: Array(other.utf8), publicKey: publicKey))
        }
        let stranger = try #require(ReferenceECDSA.publicKey(ofPKCS8: AppStoreSigningKey().pkcs8DER))
        #expect(!ReferenceECDSA.verify(derSignature: der, of: Array(written.utf8), publicKey: stranger))
    }

    @Test("every DER signature is minimal and verifies, across many signatures (r or s with the high bit set included)")
    func derIsMinimalAcrossManySignatures() throws {
        let key = AppStoreSigningKey()
        let publicKey = try #require(ReferenceECDSA.publicKey(ofPKCS8: key.pkcs8DER))
        var padded = 0
        for i in 0..<200 {
            let message = Array("message \(i)".utf8)
            let der = key.signDER(message)
            let integers = try #require(ReferenceECDSA.integers(ofDER: der), "\(Hex.encode(der))")
            if integers.r.count == 33 || integers.s.count == 33 { padded += 1 }
            #expect(der.count <= 72)
            #expect(ReferenceECDSA.verify(derSignature: der, of: message, publicKey: publicKey))
        }
        // About three in four signatures have r or s with the top bit set: the zero in front is exercised.
        #expect(padded > 0)
    }

    @Test("a key that is not a P-256 .p8, or a key ID or bundle ID the payload cannot carry, is refused with its code")
    func refusesWhatAppleWouldNot() throws {
        func code(_ body: () throws(PromotionalOfferKeyError) -> PromotionalOfferSigner) -> PromotionalOfferKeyError.Code? {
            do { _ = try body(); return nil } catch { return error.code }
        }
        let pem = PEM.encode(AppStoreSigningKey().pkcs8DER, label: "PRIVATE KEY")
        #expect(code { () throws(PromotionalOfferKeyError) in try PromotionalOfferSigner(bundleID: "b", keyID: "OFFER12345", privateKeyPEM: pem) } == nil)
        #expect(code { () throws(PromotionalOfferKeyError) in try PromotionalOfferSigner(bundleID: "b", keyID: "OFFER12345", privateKeyPEM: "not a key") }
                == .invalidPrivateKey)
        #expect(code { () throws(PromotionalOfferKeyError) in try PromotionalOfferSigner(bundleID: "b", keyID: "OFFER12345", privateKeyPEM: pem + pem) }
                == .invalidPrivateKey)
        let p384 = PEM.encode(AppStoreSigningKey(curve: "P-384").pkcs8DER, label: "PRIVATE KEY")
        #expect(code { () throws(PromotionalOfferKeyError) in try PromotionalOfferSigner(bundleID: "b", keyID: "OFFER12345", privateKeyPEM: p384) }
                == .invalidPrivateKey)
        for keyID in ["offer12345", "OFFER1234", "OFFER123456", "OFFER 1234", "OFFER1234\u{2063}"] {
            #expect(code { () throws(PromotionalOfferKeyError) in try PromotionalOfferSigner(bundleID: "b", keyID: keyID, privateKeyPEM: pem) }
                    == .invalidKeyID, "\(keyID.debugDescription)")
        }
        for bundleID in ["", "ai.screenrig app", "ai.screenrig.app\u{2063}"] {
            #expect(code { () throws(PromotionalOfferKeyError) in try PromotionalOfferSigner(bundleID: bundleID, keyID: "OFFER12345", privateKeyPEM: pem) }
                    == .invalidBundleID, "\(bundleID.debugDescription)")
        }
    }
}
