import Testing
@testable import LedgerJSON

@Suite("validateForJSONB")
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
}
