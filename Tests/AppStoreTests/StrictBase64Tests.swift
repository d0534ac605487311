import Crypto
import Foundation
import Testing
import TestSupport
@testable import AppStore

@Suite(.bounded) struct StrictBase64Tests {
    @Test func roundTripsEveryLengthAgainstFoundation() {
        var rng = SeededRandom(seed: 7)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let standard = Data(bytes).base64EncodedString()
            #expect(StrictBase64.decode(standard, .standard) == bytes)
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(StrictBase64.decode(url, .url) == bytes)
            #expect(Base64URL.encode(bytes) == url)
            #expect(StrictBase64.encode(bytes, .standard) == standard)
            #expect(StrictBase64.encode(bytes, .url) == url)
            #expect(Base64URL.decode(url) == bytes)
        }
    }

    @Test func hexOfAnArrayIsTheSequencesHexAndDecodesBack() {
        var rng = SeededRandom(seed: 11)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let viaSequence = Hex.encode(bytes.lazy.map { $0 })
            #expect(Hex.encode(bytes) == viaSequence)
            #expect(Hex.encode(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
            #expect(Hex.decode(Hex.encode(bytes)) == bytes)
        }
    }

    @Test func urlRefusesPaddingAndTheStandardAlphabet() {
        #expect(StrictBase64.decode("YQ", .url) == [0x61])
        #expect(StrictBase64.decode("YQ==", .url) == nil)
        #expect(StrictBase64.decode("YQ=", .url) == nil)
        #expect(StrictBase64.decode("-_8", .url) == [0xFB, 0xFF])
        #expect(StrictBase64.decode("+/8", .url) == nil)
        #expect(StrictBase64.decode("Y", .url) == nil)
    }

    @Test func standardRequiresPaddingAndItsAlphabet() {
        #expect(StrictBase64.decode("YQ==", .standard) == [0x61])
        #expect(StrictBase64.decode("YQ", .standard) == nil)
        #expect(StrictBase64.decode("YQ=", .standard) == nil)
        #expect(StrictBase64.decode("Y===", .standard) == nil)
        #expect(StrictBase64.decode("=YQ=", .standard) == nil)
        #expect(StrictBase64.decode("YQ==YQ==", .standard) == nil)
        #expect(StrictBase64.decode("+/8=", .standard) == [0xFB, 0xFF])
        #expect(StrictBase64.decode("-_8=", .standard) == nil)
        #expect(StrictBase64.decode("", .standard) == [])
    }

    /// One byte string, one text: the unused bits of the last character must be zero.
    @Test func nonCanonicalEndingsAreRefused() {
        #expect(StrictBase64.decode("YR", .url) == nil)  // 'a' with a stray low bit
        #expect(StrictBase64.decode("YWJ", .url) == nil)
        #expect(StrictBase64.decode("YWI", .url) == [0x61, 0x62])
        #expect(StrictBase64.decode("YR==", .standard) == nil)
    }

    @Test func whitespaceAndOtherBytesAreRefused() {
        for text in ["YW Jj", "YWJj\n", " YWJj", "YWJ\u{0}", "YWJé", "YW.j"] {
            #expect(StrictBase64.decode(text, .url) == nil, "\(text)")
            #expect(StrictBase64.decode(text, .standard) == nil, "\(text)")
        }
    }
}
