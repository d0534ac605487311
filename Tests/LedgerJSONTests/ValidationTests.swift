import Testing
import TestSupport
@testable import LedgerJSON

@Suite("validateForJSONB", .bounded)
struct ValidationTests {
    static let refused: [(JSONValue, JSONValidationError.Code, String)] = [
        (.string("\u{0}"), .nulCharacter, ""),
        (.object(["a\u{0}": 1]), .nulCharacter, "a\u{0}"),
        (.array([1, ["x": .string("ok\u{0}")]]), .nulCharacter, "[1].x"),
        (.decimal("1e3"), .noncanonicalDecimal, ""),
        (.decimal("01"), .noncanonicalDecimal, ""),
        (.decimal("-0"), .noncanonicalDecimal, ""),
        (.decimal("-0.00"), .noncanonicalDecimal, ""),
        (.decimal("+1"), .noncanonicalDecimal, ""),
        (.decimal(".5"), .noncanonicalDecimal, ""),
        (.decimal("1."), .noncanonicalDecimal, ""),
        (.decimal(""), .noncanonicalDecimal, ""),
        (.decimal("NaN"), .noncanonicalDecimal, ""),
        (.decimal(" 1"), .noncanonicalDecimal, ""),
        (.decimal("1" + String(repeating: "0", count: 131_072)), .decimalOutOfRange, ""),
        (.decimal("0." + String(repeating: "0", count: 16_384)), .decimalOutOfRange, ""),
        (.object(["amount": .decimal("1,5")]), .noncanonicalDecimal, "amount"),
    ]

    @Test("refused values, with code and path", arguments: refused.indices)
    func refusedValues(_ i: Int) {
        let (value, code, path) = Self.refused[i]
        do {
            try value.validateForJSONB()
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.code == code)
            #expect(error.path.description == path)
        }
    }

    @Test("accepted values")
    func acceptedValues() throws {
        for value: JSONValue in [
            nil, true, 0, .integer(.min), .decimal("0"), .decimal("-0.001"), .decimal("0.000"), .decimal("1000"),
            .decimal("1" + String(repeating: "0", count: 131_071)), .decimal("0." + String(repeating: "0", count: 16_383)),
            .string("\u{1}\u{7F}😀"), ["": [[:], []]],
        ] {
            try value.validateForJSONB()
        }
    }

    @Test("nesting deeper than the parser reads back is refused; 256 levels are fine")
    func depth() throws {
        func nested(_ levels: Int) -> JSONValue {
            var value: JSONValue = 1
            for i in 0..<levels { value = i % 2 == 0 ? [value] : ["k": value] }
            return value
        }
        try nested(256).validateForJSONB()
        #expect(try JSONValue.parse(nested(256).canonicalText) == nested(256))
        do {
            try nested(257).validateForJSONB()
            Issue.record("accepted")
        } catch {
            #expect(error.code == .tooDeep)
        }
        var buffer: [UInt8] = []
        #expect(throws: JSONValidationError.self) { try nested(257).writeCanonical(into: &buffer) }
    }

    @Test("whatever passes validation reads back from its canonical text with default options")
    func readBack() throws {
        try Property.check("validation.readback", count: 2000) { (rng, seed) throws in
            let value = Gen.value(&rng, maxDepth: 5)
            guard (try? value.validateForJSONB()) != nil else { return }
            let back = try JSONValue.parse(value.canonicalText)
            #expect(sameBytes(back.canonicalText, value.canonicalText), "seed \(seed.hex)")
        }
    }
}
