import Crypto
import Foundation
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// Inputs that are not a well-formed JWS get the right code, and never a crash.
@Suite(.bounded) struct MalformedInputTests {
    let signer = TestAppStoreSigner()
    var verifier: AppStoreVerifier { AppStoreVerifier(policy: signer.developmentPolicy) }
    var valid: String { signer.transaction() }

    func code(_ jws: String) -> AppStoreError.Code? { refusal { try verifier.verifyAny(jws, expectedEnvironment: nil) } }

    @Test func emptyAndTooFewOrTooManyParts() {
        let p = parts(valid)
        #expect(code("") == .malformedJWS)
        #expect(code(".") == .malformedJWS)
        #expect(code("..") == .malformedJWS)
        #expect(code(p[0]) == .malformedJWS)
        #expect(code(p[0] + "." + p[1]) == .malformedJWS)
        #expect(code(valid + ".") == .malformedJWS)
        #expect(code(valid + "." + p[2]) == .malformedJWS)
        #expect(code("." + p[1] + "." + p[2]) == .malformedJWS)
    }

    @Test func badBase64url() {
        let p = parts(valid)
        #expect(code("!!!!." + p[1] + "." + p[2]) == .malformedJWS)
        #expect(code(p[0] + ".%%%." + p[2]) == .malformedJWS)
        #expect(code(p[0] + "." + p[1] + ".***") == .malformedJWS)
        // Standard base64's + and / are not base64url.
        let standard = Data(signer.header.compactText().utf8).base64EncodedString()
        if standard.contains("+") || standard.contains("/") { #expect(code(standard + "." + p[1] + "." + p[2]) == .malformedJWS) }
        // Whitespace inside a part.
        #expect(code(p[0] + "." + p[1] + ". " + p[2]) == .malformedJWS)
        #expect(code(String(p[0].prefix(10)) + "\n" + p[0].dropFirst(10) + "." + p[1] + "." + p[2]) == .malformedJWS)
    }

    /// Apple writes no padding, and neither does RFC 7515: a padded part is refused so
    /// that a token has one spelling.
    @Test func paddingIsRefused() {
        // Trailing spaces until the header's length needs padding.
        var header = signer.header.compactText()
        while header.utf8.count % 3 == 0 { header += " " }
        let jws = signer.sign(headerText: header, payloadText: signer.transactionPayload().compactText())
        #expect(code(jws) == nil)
        var p = parts(jws)
        let padded = p[0] + String(repeating: "=", count: (4 - p[0].count % 4) % 4)
        #expect(padded != p[0])
        p[0] = padded
        #expect(code(joined(p)) == .malformedJWS)
    }

    @Test func aHeaderThatIsNotAJSONObject() {
        let payload = signer.transactionPayload().compactText()
        for header in ["not json", "[\"ES256\"]", "\"ES256\"", "{\"alg\":\"ES256\",}", "{", "", "null"] {
            #expect(code(signer.sign(headerText: header, payloadText: payload)) == .malformedJWS, "\(header)")
        }
    }

    @Test func missingOrEmptyX5c() {
        let payload = signer.transactionPayload()
        #expect(code(signer.sign(payload: payload, header: ["alg": "ES256"])) == .missingCertificates)
        #expect(code(signer.sign(payload: payload, header: ["alg": "ES256", "x5c": nil])) == .missingCertificates)
        #expect(code(signer.sign(payload: payload, header: ["alg": "ES256", "x5c": []])) == .missingCertificates)
        #expect(code(signer.sign(payload: payload, header: ["alg": "ES256", "x5c": "MIIB"])) == .malformedJWS)
        #expect(code(signer.sign(payload: payload, header: ["alg": "ES256", "x5c": [1, 2]])) == .malformedJWS)
    }

    @Test func certificatesThatAreNotBase64DER() {
        let payload = signer.transactionPayload()
        let leaf = Data(signer.certificates[0]).base64EncodedString()
        let intermediate = Data(signer.certificates[1]).base64EncodedString()
        let urlLeaf = leaf.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        for x5c: [JSONValue] in [
            ["!!!", .string(intermediate)],
            [.string(leaf), "bm90IGEgY2VydGlmaWNhdGU="],  // "not a certificate"
            ["", .string(intermediate)],
            [.string(String(leaf.dropLast(4))), .string(intermediate)],  // truncated DER
            [.string(leaf + "AAAA"), .string(intermediate)],  // trailing bytes after the certificate
            [.string(String(leaf.dropLast(1))), .string(intermediate)],  // bad padding
        ] {
            #expect(code(signer.sign(payload: payload, header: ["alg": "ES256", "x5c": .array(x5c)])) == .malformedJWS)
        }
        if urlLeaf != leaf {
            #expect(code(signer.sign(payload: payload, header: ["alg": "ES256", "x5c": [.string(urlLeaf), .string(intermediate)]])) == .malformedJWS)
        }
    }

    @Test func tooManyCertificates() {
        let x5c = JSONValue.array(Array(repeating: signer.certificates, count: 2).flatMap { $0 }.map { .string(Data($0).base64EncodedString()) })
        #expect(code(signer.sign(payload: signer.transactionPayload(), header: ["alg": "ES256", "x5c": x5c])) == .untrustedChain)
    }

    @Test func aPayloadThatIsNotAJSONObject() {
        let header = signer.header.compactText()
        for payload in ["not json", "[1,2]", "42", "{\"signedDate\":", "", "{\"a\":1} x"] {
            #expect(code(signer.sign(headerText: header, payloadText: payload)) == .malformedPayload, "\(payload)")
        }
        // Invalid UTF-8 inside.
        let bytes: [UInt8] = Array("{\"bundleId\":\"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        let input = parts(valid)[0] + "." + Base64URL.encode(bytes)
        #expect(code(input + "." + Base64URL.encode(signer.key.sign(Array(input.utf8)))) == .malformedPayload)
    }

    @Test func signedDateMissingOrMistyped() {
        for value: JSONValue in [nil, "1739161772561", .decimal("1739161772561.5"), -5, true] {
            let payload = value == .null ? signer.transactionPayload().removing("signedDate") : signer.transactionPayload().replacing(["signedDate": value])
            #expect(code(signer.sign(payload: payload)) == .malformedPayload)
        }
    }

    @Test func fieldsOfTheWrongType() {
        let cases: [[String: JSONValue]] = [
            ["productId": 5], ["bundleId": nil], ["purchaseDate": "yesterday"], ["appAccountToken": "not-a-uuid"],
            ["isUpgraded": "yes"], ["price": "1.00"], ["transactionId": nil], ["environment": 1],
        ]
        for extra in cases {
            let payload = extra.values.first == .null ? signer.transactionPayload().removing(extra.keys.first!) : signer.transactionPayload(extra: extra)
            #expect(refusal { try verifier.verifyTransaction(signer.sign(payload: payload)) } == .malformedPayload, "\(extra)")
        }
        let notification = signer.notificationPayload(type: "TEST").removing("data")
        #expect(refusal { try verifier.verifyNotification(signer.sign(payload: notification)) } == .malformedPayload)
        let nestedNumber = signer.notificationPayload(type: "TEST").replacing(["data": ["bundleId": "ai.screenrig.app", "environment": "Production", "signedTransactionInfo": 5]])
        #expect(refusal { try verifier.verifyNotification(signer.sign(payload: nestedNumber)) } == .malformedPayload)
    }

    @Test func aSignatureOfTheWrongLength() {
        var p = parts(valid)
        let signature = StrictBase64.decode(p[2], .url)!
        for cut: [UInt8] in [Array(signature.prefix(63)), signature + [0], [], signature + signature] {
            p[2] = Base64URL.encode(cut)
            #expect(code(joined(p)) == .badSignature)
        }
    }

    /// A DER signature where ES256 wants raw r‖s.
    @Test func aDERSignature() {
        var p = parts(valid)
        let raw = StrictBase64.decode(p[2], .url)!
        var der: [UInt8] = [0x02, 0x21, 0x00] + raw.prefix(32) + [0x02, 0x21, 0x00] + raw.suffix(32)
        der = [0x30, UInt8(der.count)] + der
        p[2] = Base64URL.encode(der)
        #expect(code(joined(p)) == .badSignature)
    }

    @Test func garbageNeverCrashes() throws {
        try Property.check("garbageNeverCrashes", count: 300) { rng, seed in
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ {}\"")
            let text = rng.string(from: alphabet, length: rng.int(0...300))
            #expect(code(text) != nil, "seed \(seed.hex)")
        }
    }

    @Test func unverifiedPayloadOfGarbageIsNil() {
        #expect(AppStoreVerifier.unverifiedPayload(of: "") == nil)
        #expect(AppStoreVerifier.unverifiedPayload(of: "a.b") == nil)
        #expect(AppStoreVerifier.unverifiedPayload(of: "a.!!.c") == nil)
        #expect(AppStoreVerifier.unverifiedPayload(of: valid)?["productId"] == "ai.screenrig.plus.monthly")
    }
}
