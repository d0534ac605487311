import Testing
import TestSupport
@testable import LedgerJSON

/// The fast writers against a deliberately plain restatement of jsonb's output rules.
@Suite("Property: writers against a plain reference", .bounded)
struct ReferenceWriterTests {
    /// jsonb's text, built with plain string operations on bytes.
    static func reference(_ value: JSONValue) -> [UInt8] {
        func quoted(_ s: String) -> [UInt8] {
            var out: [UInt8] = [0x22]
            for b in s.utf8 {
                switch b {
                case 0x22: out += Array("\\\"".utf8)
                case 0x5C: out += Array("\\\\".utf8)
                case 0x08: out += Array("\\b".utf8)
                case 0x0C: out += Array("\\f".utf8)
                case 0x0A: out += Array("\\n".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case 0x09: out += Array("\\t".utf8)
                case 0..<0x20: out += Array(("\\u00" + (b < 0x10 ? "0" : "") + String(b, radix: 16)).utf8)
                default: out.append(b)
                }
            }
            return out + [0x22]
        }
        switch value {
        case .null: return Array("null".utf8)
        case .bool(let b): return Array((b ? "true" : "false").utf8)
        case .integer(let n): return Array(String(n).utf8)
        case .decimal(let t): return Array(t.utf8)
        case .string(let s): return quoted(s)
        case .array(let a): return Array("[".utf8) + Array(a.map(reference).joined(separator: Array(", ".utf8))) + Array("]".utf8)
        case .object(let o):
            let keys = o.keys.sorted { a, b in
                let (x, y) = (Array(a.utf8), Array(b.utf8))
                return x.count != y.count ? x.count < y.count : x.lexicographicallyPrecedes(y)
            }
            let members = keys.map { quoted($0) + Array(": ".utf8) + reference(o[$0]!) }
            return Array("{".utf8) + Array(members.joined(separator: Array(", ".utf8))) + Array("}".utf8)
        }
    }

    static func referenceText(_ value: JSONValue) -> String { String(decoding: reference(value), as: UTF8.self) }

    @Test("canonicalBytes equals the reference for generated values")
    func generated() throws {
        try Property.check("reference.values", count: 3000) { (rng, seed) throws in
            let value = Gen.value(&rng, maxDepth: 5)
            // Compared as text: readable when it fails (the bytes are what the text holds).
            #expect(sameBytes(value.canonicalText, Self.referenceText(value)), "seed \(seed.hex): \(Self.referenceText(value))")
            let bytesMatch = value.canonicalBytes == Self.reference(value)
            #expect(bytesMatch, "seed \(seed.hex)")
            var buffer: [UInt8] = [1, 2, 3]
            if (try? value.validateForJSONB()) != nil {
                try value.writeCanonical(into: &buffer)
                let appended = buffer == [1, 2, 3] + Self.reference(value)
                #expect(appended, "seed \(seed.hex): \(Self.referenceText(value))")
            }
        }
    }

    @Test("every byte needing an escape, at every offset around the 8-byte scanning steps")
    func escapePositions() {
        let specials: [Unicode.Scalar] = (0...0x1F).map { Unicode.Scalar(UInt8($0)) } + ["\"", "\\", "\u{7F}", "é", "😀", "/", " ", "!", "#", "[", "]", "|"]
        for length in 1...26 {
            for position in 0..<length {
                for special in specials {
                    var scalars = String.UnicodeScalarView(repeatElement("a", count: length))
                    let at = scalars.index(scalars.startIndex, offsetBy: position)
                    scalars.replaceSubrange(at...at, with: [special])
                    let s = String(scalars)
                    #expect(sameBytes(JSONValue.string(s).canonicalText, Self.referenceText(.string(s))), "length \(length) position \(position) U+\(String(special.value, radix: 16))")
                }
            }
        }
    }

    @Test("output far beyond the stack scratch buffer")
    func large() throws {
        let long = String(repeating: "x\u{1}é\"", count: 50_000)
        let value: JSONValue = ["a": .string(long), "b": .array((0..<5000).map { .integer(Int64($0) * 7919) })]
        #expect(sameBytes(value.canonicalText, Self.referenceText(value)))
        #expect(value.canonicalText.utf8.count == Self.reference(value).count)
        #expect(try JSONValue.parse(value.compactText()) == value)
        var buffer: [UInt8] = []
        try value.writeCanonical(into: &buffer)
        #expect(buffer == Self.reference(value))
    }

    @Test("a failed writeCanonical leaves the buffer as it was")
    func failedWriteLeavesBuffer() {
        var buffer: [UInt8] = [9]
        #expect(throws: JSONValidationError.self) { try JSONValue.array([1, "ok", .string("\u{0}")]).writeCanonical(into: &buffer) }
        #expect(buffer == [9])
    }
}
