import AppStore
import Foundation
import LedgerDomain
@testable import LedgerServices
import Testing
import TestSupport

/// The rules of signing a promotional offer, without HTTP: which products, which
/// timestamps, which key; the nonce and timestamp the server supplies.
@Suite("Promotional offers: what is signed, and what is refused", .bounded)
struct PromotionalOfferSigningTests {
    static let now = Timestamp(milliseconds: 1_763_208_000_000)!
    static let monthly = CatalogProduct(id: "pro.monthly", displayName: "Pro", description: "Pro", type: .autoRenewableSubscription,
                                        subscriptionGroupID: 1, subscriptionPeriod: "P1M")
    static let app = AppCatalog(appID: "demo", bundleID: "ai.screenrig.app", products: [
        monthly,
        CatalogProduct(id: "pro.lifetime", displayName: "Lifetime", description: "Once", type: .nonConsumable),
        CatalogProduct(id: "pass.month", displayName: "Pass", description: "A month", type: .nonRenewingSubscription),
    ])
    static let key = AppStoreSigningKey()
    static let signing = PromotionalOfferSigning(signers: [try! PromotionalOfferSigner(bundleID: "ai.screenrig.app", keyID: "OFFER12345", key: key)])

    func refusal(_ request: PromotionalOfferRequest, app: AppCatalog = Self.app,
                 signing: PromotionalOfferSigning = Self.signing) -> PromotionalOfferRefusal.Code? {
        do {
            _ = try signing.sign(request, app: app, now: Self.now)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("without a nonce or a timestamp the server makes a version 4 UUID and takes its clock, in milliseconds")
    func serverSuppliesNonceAndTimestamp() throws {
        let a = try Self.signing.sign(PromotionalOfferRequest(productID: "pro.monthly", offerID: "win_back"), app: Self.app, now: Self.now)
        let b = try Self.signing.sign(PromotionalOfferRequest(productID: "pro.monthly", offerID: "win_back"), app: Self.app, now: Self.now)
        #expect(a.timestamp == 1_763_208_000_000)
        #expect(a.nonce != b.nonce, "a new nonce for every signature")
        let nonce = Array(a.nonce.utf8)
        #expect(a.nonce == a.nonce.lowercased() && nonce.count == 36 && nonce[14] == UInt8(ascii: "4"))
        #expect(a.payload.appAccountToken == nil && a.payload.bundleID == "ai.screenrig.app" && a.keyID == "OFFER12345")
        let publicKey = try #require(ReferenceECDSA.publicKey(ofPKCS8: Self.key.pkcs8DER))
        #expect(ReferenceECDSA.verify(derSignature: a.der, of: a.payload.bytes, publicKey: publicKey))
    }

    @Test("the app's own nonce and timestamp are signed as given (the nonce in lower case)")
    func appsOwnNonceAndTimestamp() throws {
        let nonce = UUID(uuidString: "D1E2F3A4-B5C6-4D7E-8F90-A1B2C3D4E5F6")!
        let signed = try Self.signing.sign(PromotionalOfferRequest(productID: "pro.monthly", offerID: "o", nonce: nonce,
                                                                   timestamp: 1_763_208_000_000 - 299_999),
                                           app: Self.app, now: Self.now)
        #expect(signed.nonce == "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6" && signed.timestamp == 1_763_207_700_001)
    }

    @Test("only the app's auto-renewable subscriptions are signed")
    func onlyTheAppsAutoRenewableSubscriptions() {
        #expect(refusal(PromotionalOfferRequest(productID: "pro.monthly", offerID: "o")) == nil)
        #expect(refusal(PromotionalOfferRequest(productID: "other.monthly", offerID: "o")) == .unknownProduct)
        #expect(refusal(PromotionalOfferRequest(productID: "pro.lifetime", offerID: "o")) == .notASubscription)
        #expect(refusal(PromotionalOfferRequest(productID: "pass.month", offerID: "o")) == .notASubscription)
    }

    @Test("an offer identifier the payload cannot carry is refused, not signed")
    func offerIdentifierMustFitThePayload() {
        for offerID in ["", "win back", "win\u{2063}back", "café"] {
            #expect(refusal(PromotionalOfferRequest(productID: "pro.monthly", offerID: offerID)) == .invalidOfferID, "\(offerID.debugDescription)")
        }
    }

    @Test("an app's timestamp is accepted within 300 seconds of the clock either way, refused past it, and never overflows")
    func timestampWindow() {
        let now: Int64 = 1_763_208_000_000
        for (timestamp, accepted) in [(now, true), (now + 300_000, true), (now - 300_000, true), (now + 300_001, false),
                                      (now - 300_001, false), (0, false), (Int64.max, false), (Int64.min, false)] {
            let code = refusal(PromotionalOfferRequest(productID: "pro.monthly", offerID: "o", timestamp: timestamp))
            #expect(code == (accepted ? nil : .timestampOutOfWindow), "\(timestamp)")
        }
    }

    @Test("an app whose bundle ID has no key is refused as the configuration's, after the request's own mistakes")
    func noKeyForTheBundle() {
        var other = Self.app
        other.bundleID = "com.example.other"
        #expect(refusal(PromotionalOfferRequest(productID: "pro.monthly", offerID: "o"), app: other) == .offerKeyNotConfigured)
        #expect(refusal(PromotionalOfferRequest(productID: "pro.monthly", offerID: "o"), signing: PromotionalOfferSigning()) == .offerKeyNotConfigured)
        #expect(refusal(PromotionalOfferRequest(productID: "nope", offerID: "o"), app: other) == .unknownProduct)
    }
}
