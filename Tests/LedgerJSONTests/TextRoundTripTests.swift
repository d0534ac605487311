import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Property: text round trips", .bounded)
struct TextRoundTripTests {
    @Test("compact, pretty and canonical text parse back to the same value, byte for byte")
    func roundTrips() throws {
        try Property.check("text.roundtrip", count: 3000) { (rng, seed) throws in
            let value = Gen.value(&rng)
            let canonical = value.canonicalBytes
            for text in [value.compactText(), value.compactText(sortedKeys: false), value.prettyText(), value.canonicalText] {
                let parsed = try JSONValue.parse(text, options: .unboundedNumbers)
                #expect(parsed == value, "seed \(seed.hex): \(text)")
                // Swift's == treats canonically equivalent strings as equal; bytes must match too.
                #expect(sameBytes(parsed.canonicalText, value.canonicalText), "seed \(seed.hex): \(text)")
            }
            let fromBytes = try JSONValue.parse(value.compactBytes(), options: .unboundedNumbers).canonicalBytes == canonical
            #expect(fromBytes, "seed \(seed.hex): \(value.compactText())")
        }
    }

    @Test("canonical text is a fixed point and independent of dictionary order")
    func canonicalIsStable() throws {
        try Property.check("text.canonical", count: 1000) { (rng, seed) throws in
            let value = Gen.value(&rng)
            let text = value.canonicalText
            #expect(sameBytes(try JSONValue.parse(text, options: .unboundedNumbers).canonicalText, text), "seed \(seed.hex): \(text)")
            // A dictionary rebuilt in another insertion order prints the same.
            if case .object(let members) = value {
                var reversed: [String: JSONValue] = [:]
                for (k, v) in members.sorted(by: { $0.key.utf8.count > $1.key.utf8.count }) { reversed[k] = v }
                #expect(sameBytes(JSONValue.object(reversed).canonicalText, text), "seed \(seed.hex)")
            }
        }
    }

    @Test("whitespace anywhere between tokens changes nothing")
    func whitespace() throws {
        try Property.check("text.whitespace", count: 1000) { (rng, seed) throws in
            let value = Gen.value(&rng)
            var text = ""
            var inString = false
            var escaped = false
            // Whitespace may go around structural characters only: not into strings,
            // numbers or literals.
            let structural: Set<Unicode.Scalar> = ["{", "}", "[", "]", ",", ":"]
            var previous: Unicode.Scalar = "["
            for ch in value.compactText().unicodeScalars {
                if !inString && (structural.contains(ch) || structural.contains(previous)) && rng.chance(0.3) {
                    text += rng.pick([" ", "\n", "\t", "\r", "\r\n  "])
                }
                previous = inString ? "x" : ch
                text.unicodeScalars.append(ch)
                if inString {
                    if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                } else if ch == "\"" {
                    inString = true
                }
            }
            text += rng.chance(0.5) ? "\n" : ""
            #expect(sameBytes(try JSONValue.parse(text).canonicalText, value.canonicalText), "seed \(seed.hex): \(text)")
        }
    }

    @Test("any single-character change either parses or fails with a position inside the text")
    func mutations() throws {
        try Property.check("text.mutations", count: 3000) { (rng, seed) throws in
            var scalars = Array(Gen.value(&rng, maxDepth: 3).compactText().unicodeScalars)
            let at = rng.int(0...scalars.count)
            let pool: [Unicode.Scalar] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "0", "1", "-", "+", ".", "e", "t", "n", "u", " ", "\u{1}", "é"]
            switch rng.int(0...2) {
            case 0: scalars.insert(rng.pick(pool), at: at)
            case 1: if at < scalars.count { scalars.remove(at: at) }
            default: if at < scalars.count { scalars[at] = rng.pick(pool) }
            }
            let text = String(String.UnicodeScalarView(scalars))
            switch Result(catching: { () throws(JSONParseError) in try JSONValue.parse(text) }) {
            case .success(let value):
                #expect(try JSONValue.parse(value.compactText()) == value, "seed \(seed.hex)")
            case .failure(let error):
                #expect(error.offset >= 0 && error.offset <= text.utf8.count, "seed \(seed.hex)")
                #expect(error.line >= 1 && error.column >= 1, "seed \(seed.hex)")
            }
        }
    }
}
