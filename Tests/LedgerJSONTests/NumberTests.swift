import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Numbers: PostgreSQL numeric text", .bounded)
struct NumberTests {
    // Each expectation was checked against PostgreSQL 15 (`SELECT '<literal>'::jsonb::text`);
    // PostgresJSONBTests re-checks them on every run.
    static let canonical: [(literal: String, text: String)] = [
        ("0", "0"), ("-0", "0"), ("0.0", "0.0"), ("-0.0", "0.0"), ("0.000", "0.000"), ("-0e-3", "0.000"),
        ("0e5", "0"), ("0e-5", "0.00000"), ("0.000e3", "0"), ("1.50", "1.50"), ("1e3", "1000"), ("1E-2", "0.01"),
        ("1e-7", "0.0000001"), ("1.50e1", "15.0"), ("1.5e+1", "15"), ("10e-1", "1.0"), ("100e-2", "1.00"),
        ("0.5e1", "5"), ("1.25e1", "12.5"), ("12e-5", "0.00012"), ("123.456e-2", "1.23456"), ("1.000e2", "100.0"),
        ("5E00001", "50"), ("1e-0", "1"), ("0.001e-3", "0.000001"), ("-1.0", "-1.0"), ("-12.340", "-12.340"),
        ("100000000000000000000", "100000000000000000000"), ("-9223372036854775809", "-9223372036854775809"),
        ("0.1e1", "1"), ("0.01e1", "0.1"), ("-0.01e2", "-1"), ("9.9e2", "990"),
    ]

    @Test("decimal(fromLiteral:) prints what numeric_out prints", arguments: canonical.indices)
    func decimalText(_ i: Int) throws {
        let (literal, text) = Self.canonical[i]
        #expect(try JSONValue.decimal(fromLiteral: literal) == .decimal(text), "\(literal)")
        #expect(try JSONValue.decimal(fromLiteral: literal).canonicalText == text)
        #expect(try JSONValue.number(fromLiteral: literal).canonicalText == text)
        #expect(try JSONValue.parse(literal, options: .unboundedNumbers).canonicalText == text)
    }

    @Test("number(fromLiteral:) gives .integer exactly when the text is a whole Int64")
    func integerPreference() throws {
        #expect(try JSONValue.number(fromLiteral: "1e3") == .integer(1000))
        #expect(try JSONValue.number(fromLiteral: "-0e-0") == .integer(0))
        #expect(try JSONValue.number(fromLiteral: "1.0") == .decimal("1.0"))
        #expect(try JSONValue.number(fromLiteral: "0e-1") == .decimal("0.0"))
        #expect(try JSONValue.number(fromLiteral: "9.223372036854775807e18") == .integer(.max))
        #expect(try JSONValue.number(fromLiteral: "-9.223372036854775808e18") == .integer(.min))
        #expect(try JSONValue.number(fromLiteral: "9.223372036854775808e18") == .decimal("9223372036854775808"))
        #expect(throws: JSONParseError.self) { try JSONValue.number(fromLiteral: "00000") }
    }

    @Test("literals that are not exactly one JSON number are refused")
    func invalidLiterals() {
        for literal in ["", " 1", "1 ", "+1", ".5", "1.", "01", "1e", "NaN", "Infinity", "0x1", "1,0", "1e5x", "--1"] {
            #expect(throws: JSONParseError.self, "\(literal.debugDescription)") { try JSONValue.decimal(fromLiteral: literal) }
        }
        do {
            _ = try JSONValue.decimal(fromLiteral: "1e131072")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .numberOutOfRange)
        }
    }

    @Test("numeric's range: 131072 integer digits, 16383 fraction digits, |exponent| < 1073741823")
    func limits() throws {
        #expect(try JSONValue.decimal(fromLiteral: "1e131071").decimalText?.count == 131_072)
        #expect(try JSONValue.decimal(fromLiteral: "1e-16383").decimalText?.count == 16_385)
        #expect(try JSONValue.decimal(fromLiteral: "0.01e131073").decimalText?.count == 131_072)
        #expect(try JSONValue.decimal(fromLiteral: "0e1073741822") == .decimal("0"))
        for literal in ["1e131072", "10e131071", "0.1e131073", "1e-16384", "0.5e-16383", "0e-16384", "0e1073741823", "-0.00e-16382"] {
            #expect(throws: JSONParseError.self, "\(literal)") { try JSONValue.decimal(fromLiteral: literal) }
        }
    }

    @Test("generated literals: canonical text agrees with a reference built on exact arithmetic")
    func generatedAgainstReference() throws {
        try Property.check("numbers.reference", count: 5000) { (rng, seed) throws in
            let literal = Gen.numberLiteral(&rng)
            let ours = try JSONValue.decimal(fromLiteral: literal).decimalText
            let reference = ReferenceNumeric.text(literal)
            #expect(ours == reference, "literal \(literal) seed \(seed.hex)")
            // The canonical text is its own canonical form.
            if let ours {
                #expect(try JSONValue.decimal(fromLiteral: ours).decimalText == ours, "literal \(literal) seed \(seed.hex)")
                #expect(NumericText.verdict(ours) == .canonical)
            }
        }
    }
}

/// An independent, deliberately naive statement of numeric_in + numeric_out for small
/// exponents: split the literal, shift the point with strings, trim.
enum ReferenceNumeric {
    static func text(_ literal: String) -> String {
        var s = Substring(literal)
        let negative = s.first == "-"
        if negative { s = s.dropFirst() }
        var mantissa = s
        var exponent = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = s[..<e]
            exponent = Int(s[s.index(after: e)...])!
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var intPart = String(parts[0])
        var fracPart = parts.count > 1 ? String(parts[1]) : ""
        // Move the point right (exponent > 0) or left (exponent < 0), padding with zeros.
        if exponent > 0 {
            let moved = min(exponent, fracPart.count)
            intPart += fracPart.prefix(moved)
            fracPart = String(fracPart.dropFirst(moved))
            intPart += String(repeating: "0", count: exponent - moved)
        } else if exponent < 0 {
            let moved = min(-exponent, intPart.count)
            fracPart = intPart.suffix(moved) + fracPart
            intPart = String(intPart.dropLast(moved))
            fracPart = String(repeating: "0", count: -exponent - moved) + fracPart
        }
        while intPart.hasPrefix("0") { intPart.removeFirst() }
        if intPart.isEmpty { intPart = "0" }
        let isZero = intPart == "0" && fracPart.allSatisfy { $0 == "0" }
        return (negative && !isZero ? "-" : "") + intPart + (fracPart.isEmpty ? "" : "." + fracPart)
    }
}
