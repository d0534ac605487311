import Foundation
import Testing
import TestSupport
@testable import LedgerJSON

@Suite("JSONValue through Foundation's JSONEncoder and JSONDecoder", .bounded)
struct FoundationBridgeTests {
    struct Envelope: Codable, Equatable {
        var kind: String
        var payload: JSONValue
    }

    @Test("a JSONValue inside a Codable struct round trips through Foundation")
    func roundTrip() throws {
        let payload: JSONValue = ["a": [1, -2, .integer(.max), .integer(.min)], "b": ["c": nil, "d": true, "e": false], "s": "é\u{1}😀", "x": .decimal("1.5"), "y": .decimal("100000000000000000000")]
        let envelope = Envelope(kind: "k", payload: payload)
        let data = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
        #expect(try JSONValue.parse(data) == ["kind": "k", "payload": payload])
    }

    @Test("generated values without decimals round trip through Foundation")
    func generated() throws {
        try Property.check("foundation.generated", count: 500) { (rng, seed) throws in
            let value = withoutDecimals(Gen.value(&rng))
            let data = try JSONEncoder().encode(Envelope(kind: "g", payload: value))
            let back = try JSONDecoder().decode(Envelope.self, from: data)
            #expect(sameBytes(back.payload.canonicalText, value.canonicalText), "seed \(seed.hex)")
        }
    }

    @Test("a decimal Foundation's Decimal would change is refused, not altered")
    func lossyDecimalRefused() {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Envelope(kind: "k", payload: .decimal("1.50"))) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Envelope(kind: "k", payload: .decimal("0.0"))) }
    }

    @Test("JSONValueEncoder and JSONValueDecoder copy a JSONValue as is")
    func ourCoders() throws {
        let envelope = Envelope(kind: "k", payload: ["d": .decimal("1.50")])
        let value = try JSONValueEncoder().encode(envelope)
        #expect(value == ["kind": "k", "payload": ["d": .decimal("1.50")]])
        #expect(try JSONValueDecoder().decode(Envelope.self, from: value) == envelope)
    }

    private func withoutDecimals(_ value: JSONValue) -> JSONValue {
        switch value {
        case .decimal: return .integer(7)
        case .array(let a): return .array(a.map(withoutDecimals))
        case .object(let o): return .object(o.mapValues(withoutDecimals))
        default: return value
        }
    }
}
