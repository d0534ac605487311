import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Parser: accepted documents", .bounded)
struct ParserAcceptanceTests {
    static let cases: [(text: String, value: JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .integer(0)),
        ("-0", .integer(0)),
        ("42", .integer(42)),
        ("-42", .integer(-42)),
        ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .decimal("9223372036854775808")),
        ("-9223372036854775809", .decimal("-9223372036854775809")),
        ("123456789012345678", .integer(123_456_789_012_345_678)),
        ("1.50", .decimal("1.50")),
        ("1e3", .integer(1000)),
        ("1E-2", .decimal("0.01")),
        ("-0.0", .decimal("0.0")),
        ("1.5e1", .integer(15)),
        ("10e-1", .decimal("1.0")),
        ("9.223372036854775807e18", .integer(.max)),
        ("\"\"", .string("")),
        ("\"abc\"", .string("abc")),
        (#""\" \\ \/ \b \f \n \r \t""#, .string("\" \\ / \u{8} \u{C} \n \r \t")),
        (#""\u0041\u00e9\u00E9\u4e2d""#, .string("Aéé中")),
        (#""\ud83d\ude00""#, .string("😀")),
        (#""\uD83D\uDE00x""#, .string("😀x")),
        (#""\u0000""#, .string("\u{0}")),
        (#""\u001f""#, .string("\u{1F}")),
        ("\"\u{7F}\"", .string("\u{7F}")),
        ("\"é😀中\u{301}\"", .string("é😀中\u{301}")),
        (#""\uFFFF\uFFFE""#, .string("\u{FFFF}\u{FFFE}")),
        ("[]", .array([])),
        ("{}", .object([:])),
        (" \t\r\n[ 1 , 2 ]\n", .array([.integer(1), .integer(2)])),
        (#"{"a":1,"b":[true,null],"c":{"d":"e"}}"#, .object(["a": 1, "b": [true, nil], "c": ["d": "e"]])),
        (#"{"a":1,"a":2}"#, .object(["a": 2])),
        (#"{"a":1,"b":2,"a":{"x":[]}}"#, .object(["a": ["x": []], "b": 2])),
        (#"{"\u0061":1,"a":2}"#, .object(["a": 2])),
        (#"{"":0}"#, .object(["": 0])),
        ("[[[[[]]]]]", .array([.array([.array([.array([.array([])])])])])),
    ]

    @Test("documents parse to the expected values", arguments: cases.indices)
    func parses(_ i: Int) throws {
        let (text, expected) = Self.cases[i]
        let value = try JSONValue.parse(text)
        #expect(value == expected, "\(text.debugDescription)")
        #expect(sameBytes(value.canonicalText, expected.canonicalText), "\(text.debugDescription)")
        // The same through the generic byte entry points.
        #expect(try JSONValue.parse(Array(text.utf8)) == expected)
        #expect(try JSONValue.parse(text.utf8) == expected)
        #expect(try JSONValue.parse(ArraySlice(Array(("  " + text).utf8))[2...]) == expected)
    }

    @Test("nesting up to the depth limit is accepted, one more is not")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        _ = try JSONValue.parse(ok)
        let objects = String(repeating: "{\"a\":", count: 256) + "1" + String(repeating: "}", count: 256)
        _ = try JSONValue.parse(objects)
        let custom = JSONParseOptions(maxDepth: 3)
        _ = try JSONValue.parse("[[[1]]]", options: custom)
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[[[[1]]]]", options: custom) }
    }

    @Test("a hostile depth fails fast instead of exhausting the stack")
    func hostileDepth() {
        let text = String(repeating: "[", count: 1_000_000)
        do {
            _ = try JSONValue.parse(text)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .tooDeep)
            #expect(error.offset == 256)
        }
    }

    @Test("duplicate keys can be refused instead")
    func duplicateKeysRejected() {
        let options = JSONParseOptions(duplicateKeys: .reject)
        do {
            _ = try JSONValue.parse("{\"a\":1,\n \"a\":2}", options: options)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.offset == 9)
            #expect(error.line == 2 && error.column == 2)
        }
    }

    @Test("keys that Swift cannot tell apart but PostgreSQL can are refused")
    func equivalentKeys() {
        // U+00E9 and e + U+0301 are canonically equivalent: one Swift dictionary key.
        do {
            _ = try JSONValue.parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .equivalentKeys)
        }
    }

    @Test("\\u0000 parses by default and can be refused while parsing, as PostgreSQL does")
    func nul() throws {
        let text = #"{"a":"\u0000","a":1}"#
        // Last key wins, so the value holds no NUL and validates; PostgreSQL refuses the text.
        try JSONValue.parse(text).validateForJSONB()
        do {
            _ = try JSONValue.parse(text, options: JSONParseOptions(allowsNUL: false))
            Issue.record("accepted")
        } catch {
            #expect(error.code == .nulCharacter)
            #expect(error.offset == 6)
        }
    }

    @Test("exponent growth is bounded by default and unbounded on request")
    func numberGrowth() throws {
        #expect(try JSONValue.parse("1e64") == .decimal("1" + String(repeating: "0", count: 64)))
        do {
            _ = try JSONValue.parse("[1e70]")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .numberTooLong)
            #expect(error.offset == 1)
        }
        let long = try JSONValue.parse("1e1000", options: .unboundedNumbers)
        #expect(long == .decimal("1" + String(repeating: "0", count: 1000)))
        // Written-out digits are never limited: only growth is.
        let digits = "1" + String(repeating: "0", count: 5000)
        #expect(try JSONValue.parse(digits) == .decimal(digits))
    }
}
