import Testing
import TestSupport
@testable import LedgerJSON

/// canonicalText against a real PostgreSQL: byte for byte, for thousands of values.
@Suite("PostgreSQL: canonical text equals jsonb::text", .serialized, .bounded)
struct PostgresJSONBTests {
    @Test("the facts the unit tests assert hold on the server")
    func unitFacts() throws {
        let server = try JSONBServer()
        let literals = NumberTests.canonical.map(\.literal)
        let outcomes = try server.outcomes(literals)
        for (i, (literal, text)) in NumberTests.canonical.enumerated() {
            #expect(outcomes[i] == .accepted(text), "\(literal)")
        }
        let values: [JSONValue] = [
            ["b": 1, "a": 2, "aa": 3, "B": 4, "": 5, "é": 6, "z": 7, "😀": 8, "abc": 9],
            .string(String(String.UnicodeScalarView((1...0x7F).map { Unicode.Scalar(UInt8($0)) }))),
            .array([1, 2, [], [:], nil, true, false, "x", .decimal("1.50"), .integer(.min), .integer(.max)]),
            ["k\n\"": ["v\\/": .string("\u{2028}\u{FEFF}\u{FFFF}")]],
        ]
        let texts = values.map { $0.compactText() }
        for (value, outcome) in zip(values, try server.outcomes(texts)) {
            #expect(outcome == .accepted(value.canonicalText))
        }
    }

    @Test("numbers at numeric's limits: accepted and refused alike, same text")
    func boundaries() throws {
        let server = try JSONBServer()
        let outcomes = try server.outcomes(Gen.boundaryLiterals, batchSize: 10)
        for (literal, outcome) in zip(Gen.boundaryLiterals, outcomes) {
            let ours = ledgerOutcome(literal)
            #expect(sameBytes(ours.canonical, outcome.text), "\(literal): ours \(ours.reason) server \(outcome)")
            if let text = try? JSONValue.decimal(fromLiteral: literal).decimalText {
                #expect(sameBytes(text, outcome.text), "\(literal)")
            }
        }
    }

    @Test("5000 generated values: canonicalText equals jsonb::text and the stored data::text")
    func generatedValues() throws {
        let server = try JSONBServer()
        var values: [JSONValue] = []
        var seeds: [UInt64] = []
        try Property.check("pg.values", count: 5000) { (rng, seed) throws in
            values.append(Gen.value(&rng))
            seeds.append(seed)
        }
        let outcomes = try server.outcomes(values.map { $0.compactText() })
        var failures = 0
        for (i, value) in values.enumerated() where outcomes[i] != .accepted(value.canonicalText) {
            failures += 1
            if failures <= 5 { Issue.record("seed \(seeds[i].hex): server \(outcomes[i]) ours \(value.canonicalText)") }
        }
        #expect(failures == 0)
        let sample = values.prefix(1000)
        let stored = try server.storedTexts(sample.map { $0.canonicalText })
        #expect(stored.count == sample.count)
        #expect(zip(stored, sample).allSatisfy { sameBytes($0, $1.canonicalText) })
    }

    @Test("5000 generated number literals: same value text, same refusals")
    func generatedNumbers() throws {
        let server = try JSONBServer()
        var literals: [String] = []
        var seeds: [UInt64] = []
        try Property.check("pg.numbers", count: 5000) { (rng, seed) throws in
            let maxExponent = rng.chance(0.02) ? 140_000 : rng.chance(0.1) ? 20_000 : 40
            var literal = Gen.numberLiteral(&rng, maxExponent: maxExponent)
            // Whole arrays of numbers too, as they appear inside documents.
            if rng.chance(0.1) { literal = "[" + literal + ", " + Gen.numberLiteral(&rng) + "]" }
            literals.append(literal)
            seeds.append(seed)
        }
        let outcomes = try server.outcomes(literals, batchSize: 100)
        var failures = 0
        for (i, literal) in literals.enumerated() {
            let ours = ledgerOutcome(literal)
            if !sameBytes(ours.canonical, outcomes[i].text) {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seeds[i].hex) \(literal): ours \(ours.canonical ?? ours.reason) server \(outcomes[i])") }
            }
        }
        #expect(failures == 0)
    }

    @Test("every control character, in strings and keys, escaped as the server escapes it")
    func controlCharacters() throws {
        let server = try JSONBServer()
        var values: [JSONValue] = []
        for c in 1...0x7F {
            let s = String(Unicode.Scalar(UInt8(c)))
            values.append(.string(s))
            values.append(.string("a" + s + "b" + s))
            values.append(.object([s: .string(s + s), "k" + s: 1]))
        }
        values.append(.string(String(String.UnicodeScalarView((1...0x1F).map { Unicode.Scalar(UInt8($0)) }))))
        let outcomes = try server.outcomes(values.map { $0.compactText() })
        for (value, outcome) in zip(values, outcomes) {
            #expect(outcome == .accepted(value.canonicalText), "\(value.compactText().debugDescription)")
        }
        // U+0000: valid JSON, refused by jsonb, refused by validateForJSONB.
        let nul: [JSONValue] = [.string("\u{0}"), .string("a\u{0}"), .object(["\u{0}": 1]), ["x": [.string("\u{0}")]]]
        for (value, outcome) in zip(nul, try server.outcomes(nul.map { $0.compactText() })) {
            #expect(outcome.text == nil)
            #expect(throws: JSONValidationError.self) { try value.validateForJSONB() }
        }
    }

    @Test("validateForJSONB refuses exactly what the server refuses or would print differently")
    func validationAgreement() throws {
        let server = try JSONBServer()
        let badDecimals = ["1e3", "-0", "-0.0", "1.0E1", "01", "+1", ".5", "1.", "NaN", "Infinity", "0x10", "1,5", " 1", "1e",
                           "1" + String(repeating: "0", count: 131_072), "0." + String(repeating: "0", count: 16_384),
                           "-0." + String(repeating: "0", count: 16_383) + "1", "0.5e-16383"]
        var values: [JSONValue] = []
        var seeds: [UInt64] = []
        try Property.check("pg.validation", count: 2000) { (rng, seed) throws in
            var value = Gen.value(&rng, maxDepth: 3)
            switch rng.int(0...3) {
            case 0: value = .array([value, .string(Gen.string(&rng, allowNUL: true))])
            case 1: value = .object([Gen.string(&rng, maxLength: 4, allowNUL: true): value])
            case 2: value = .array([.decimal(rng.pick(badDecimals)), value])
            default: break
            }
            values.append(value)
            seeds.append(seed)
        }
        let outcomes = try server.outcomes(values.map { $0.compactText() }, batchSize: 200)
        var failures = 0
        for (i, value) in values.enumerated() {
            let agrees: Bool
            do {
                try value.validateForJSONB()
                agrees = outcomes[i] == .accepted(value.canonicalText)
            } catch {
                switch error.code {
                case .noncanonicalDecimal:
                    // The server may accept such text, but then prints something else.
                    agrees = outcomes[i].text == nil || !sameBytes(outcomes[i].text, value.canonicalText)
                default:
                    agrees = outcomes[i].text == nil
                }
            }
            if !agrees {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seeds[i].hex): server \(outcomes[i]) for \(value.compactText().prefix(300))") }
            }
        }
        #expect(failures == 0)
    }
}
