import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Canonical text: PostgreSQL jsonb output", .bounded)
struct CanonicalTextTests {
    // Expectations checked against PostgreSQL 15; PostgresJSONBTests re-checks them.

    @Test("separators, empties and scalars")
    func layout() {
        #expect(JSONValue.array([1, 2, [], [:], nil, true, false]).canonicalText == "[1, 2, [], {}, null, true, false]")
        #expect(JSONValue.object(["a": 1, "b": ["c": []]]).canonicalText == #"{"a": 1, "b": {"c": []}}"#)
        #expect(JSONValue.string("top").canonicalText == #""top""#)
        #expect(JSONValue.integer(.min).canonicalText == "-9223372036854775808")
        #expect(JSONValue.integer(.max).canonicalText == "9223372036854775807")
        #expect(JSONValue.integer(0).canonicalText == "0")
        #expect(JSONValue.decimal("1.50").canonicalText == "1.50")
    }

    @Test("keys sort by byte length, then bytewise")
    func keyOrder() {
        let value: JSONValue = ["b": 1, "a": 2, "aa": 3, "B": 4, "": 5, "é": 6, "z": 7, "😀": 8, "abc": 9]
        // "é" is 2 bytes, "😀" 4: they sort among the 2- and 4-byte keys, not at the end.
        #expect(value.canonicalText == #"{"": 5, "B": 4, "a": 2, "b": 1, "z": 7, "aa": 3, "é": 6, "abc": 9, "😀": 8}"#)
    }

    @Test("escapes: quote, backslash, five short forms, other controls as lowercase \\u00xx, DEL and non-ASCII raw")
    func escapes() {
        let all = String(String.UnicodeScalarView((1...0x1F).map { Unicode.Scalar(UInt8($0)) }))
        #expect(JSONValue.string(all).canonicalText ==
            #""\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#)
        #expect(JSONValue.string("\"\\/\u{7F}é😀\u{2028}").canonicalText == "\"\\\"\\\\/\u{7F}é😀\u{2028}\"")
        #expect(JSONValue.object(["k\n\"": "v"]).canonicalText == #"{"k\n\"": "v"}"#)
    }

    @Test("canonicalBytes, canonicalText and writeCanonical agree, and the buffer is appended to")
    func entryPoints() throws {
        let value: JSONValue = ["amount": "12.50", "n": 3, "list": [.decimal("1.5"), nil]]
        var buffer: [UInt8] = Array("prefix:".utf8)
        try value.writeCanonical(into: &buffer)
        #expect(buffer == Array("prefix:".utf8) + value.canonicalBytes)
        #expect(String(decoding: value.canonicalBytes, as: UTF8.self) == value.canonicalText)
    }

    @Test("writeCanonical refuses what validateForJSONB refuses, naming the path")
    func strictWriting() {
        var buffer: [UInt8] = []
        do {
            try JSONValue.object(["data": ["items": [1, .string("a\u{0}b")]]]).writeCanonical(into: &buffer)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .nulCharacter)
            #expect(error.path.description == "data.items[1]")
            #expect(error.message.hasPrefix("data.items[1]: string contains U+0000"))
        }
        #expect(throws: JSONValidationError.self) { try JSONValue.decimal("1e3").writeCanonical(into: &buffer) }
    }

    @Test("a lenient canonicalText still escapes NUL and keeps decimal text")
    func lenient() {
        #expect(JSONValue.string("\u{0}").canonicalText == #""\u0000""#)
        #expect(JSONValue.decimal("1e3").canonicalText == "1e3")
    }

    @Test("compact and pretty text")
    func humanText() throws {
        let value: JSONValue = ["b": [1, "x"], "a": nil, "aa": [:], "B": .decimal("0.10"), "é": true]
        #expect(value.compactText() == #"{"B":0.10,"a":null,"aa":{},"b":[1,"x"],"é":true}"#)
        #expect(value.description == value.compactText())
        #expect(value.prettyText() == """
            {
              "B": 0.10,
              "a": null,
              "aa": {},
              "b": [
                1,
                "x"
              ],
              "é": true
            }
            """)
        #expect(JSONValue.array([]).prettyText() == "[]")
        let unsorted = value.compactText(sortedKeys: false)
        #expect(try JSONValue.parse(unsorted) == value)
    }
}
