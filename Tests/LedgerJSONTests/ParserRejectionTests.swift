import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Parser: refused documents", .bounded)
struct ParserRejectionTests {
    struct Case: Sendable, CustomStringConvertible {
        let bytes: [UInt8]
        let code: JSONParseError.Code
        let offset: Int
        let line: Int
        let column: Int
        init(_ text: String, _ code: JSONParseError.Code, _ offset: Int, line: Int = 1, column: Int? = nil) {
            self.init(bytes: Array(text.utf8), code, offset, line: line, column: column ?? offset + 1)
        }
        init(bytes: [UInt8], _ code: JSONParseError.Code, _ offset: Int, line: Int = 1, column: Int? = nil) {
            self.bytes = bytes
            self.code = code
            self.offset = offset
            self.line = line
            self.column = column ?? offset + 1
        }
        var description: String { String(decoding: bytes, as: UTF8.self).debugDescription }
    }

    static let cases: [Case] = [
        // Structure
        Case("", .unexpectedEndOfInput, 0),
        Case("   ", .unexpectedEndOfInput, 3),
        Case("[1,]", .unexpectedCharacter, 3),
        Case("{\"a\":1,}", .unexpectedCharacter, 7),
        Case("[1 2]", .unexpectedCharacter, 3),
        Case("{\"a\" 1}", .unexpectedCharacter, 5),
        Case("{\"a\":1 \"b\":2}", .unexpectedCharacter, 7),
        Case("{a:1}", .unexpectedCharacter, 1),
        Case("{'a':1}", .unexpectedCharacter, 1),
        Case("[", .unexpectedEndOfInput, 1),
        Case("[1", .unexpectedEndOfInput, 2),
        Case("{\"a\":", .unexpectedEndOfInput, 5),
        Case("{\"a\"", .unexpectedEndOfInput, 4),
        Case("]", .unexpectedCharacter, 0),
        Case("[1]]", .trailingData, 3),
        Case("1 2", .trailingData, 2),
        Case("{} x", .trailingData, 3),
        Case("// c\n1", .unexpectedCharacter, 0),
        Case("[1] // c", .trailingData, 4),
        Case("/* c */ 1", .unexpectedCharacter, 0),
        Case("\u{FEFF}1", .unexpectedCharacter, 0),
        Case("\u{C}1", .unexpectedCharacter, 0),
        Case("\u{A0}1", .unexpectedCharacter, 0),
        // Literals
        Case("tru", .unexpectedEndOfInput, 3),
        Case("trUe", .unexpectedCharacter, 0),
        Case("True", .unexpectedCharacter, 0),
        Case("nul", .unexpectedEndOfInput, 3),
        Case("truex", .trailingData, 4),
        Case("NaN", .unexpectedCharacter, 0),
        Case("Infinity", .unexpectedCharacter, 0),
        Case("-Infinity", .invalidNumber, 1),
        Case("undefined", .unexpectedCharacter, 0),
        // Numbers
        Case("01", .invalidNumber, 0),
        Case("-01", .invalidNumber, 1),
        Case("00.5", .invalidNumber, 0),
        Case("-", .invalidNumber, 1),
        Case("- 1", .invalidNumber, 1),
        Case("+1", .unexpectedCharacter, 0),
        Case(".5", .unexpectedCharacter, 0),
        Case("1.", .invalidNumber, 2),
        Case("1.e3", .invalidNumber, 2),
        Case("1e", .invalidNumber, 2),
        Case("1e+", .invalidNumber, 3),
        Case("1E-x", .invalidNumber, 3),
        Case("0x10", .trailingData, 1),
        Case("1_000", .trailingData, 1),
        Case("[1e131072]", .numberOutOfRange, 1),
        Case("1e-16384", .numberOutOfRange, 0),
        Case("0e-16384", .numberOutOfRange, 0),
        Case("0e1073741823", .numberOutOfRange, 0),
        Case("1e99999999999999999999", .numberOutOfRange, 0),
        // Strings
        Case("\"abc", .unterminatedString, 0),
        Case("[\"abc]", .unterminatedString, 1),
        Case("\"\\", .unterminatedString, 1),
        Case("\"a\nb\"", .unescapedControlCharacter, 2),
        Case("\"a\tb\"", .unescapedControlCharacter, 2),
        Case("\"\u{1F}\"", .unescapedControlCharacter, 1),
        Case(bytes: [0x22, 0x00, 0x22], .unescapedControlCharacter, 1),
        Case("\"\\x\"", .invalidEscape, 1),
        Case("\"\\'\"", .invalidEscape, 1),
        Case("\"\\U0041\"", .invalidEscape, 1),
        Case("\"\\u12\"", .invalidUnicodeEscape, 1),
        Case("\"\\u12G4\"", .invalidUnicodeEscape, 1),
        Case("\"\\ud83d\"", .loneSurrogate, 1),
        Case("\"\\ud83dx\"", .loneSurrogate, 1),
        Case("\"\\ud83d\\u0041\"", .loneSurrogate, 1),
        Case("\"\\ud83d\\ud83d\"", .loneSurrogate, 1),
        Case("\"\\ude00\"", .loneSurrogate, 1),
        Case("\"\\ude00\\ud83d\"", .loneSurrogate, 1),
        // UTF-8: lone continuation, overlong, surrogate, above U+10FFFF, truncated, bad lead
        Case(bytes: [0x22, 0x80, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xC1, 0xBF, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xFF, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xE2, 0x82, 0x22], .invalidUTF8, 1),
        Case(bytes: [0x22, 0xE2, 0x82], .invalidUTF8, 1),
        Case(bytes: [0x22, 0x61, 0x5C, 0x6E, 0xC3, 0x28, 0x22], .invalidUTF8, 4),
        // Positions: lines, and columns counted in characters
        Case("{\n  \"a\": 1\n  \"b\": 2\n}", .unexpectedCharacter, 13, line: 3, column: 3),
        Case("[\"é😀\" x]", .unexpectedCharacter, 10, line: 1, column: 7),
        Case("\r\n\r\n  ]", .unexpectedCharacter, 6, line: 3, column: 3),
    ]

    @Test("refused with a stable code and the exact position", arguments: cases)
    func refused(_ c: Case) {
        do {
            let value = try JSONValue.parse(c.bytes)
            Issue.record("accepted as \(value)")
        } catch {
            #expect(error.code == c.code)
            #expect(error.offset == c.offset)
            #expect(error.line == c.line)
            #expect(error.column == c.column)
            #expect(error.message.hasSuffix("at line \(c.line), column \(c.column)"))
        }
    }

    @Test("messages say what was expected and where")
    func messages() {
        func message(_ text: String) -> String {
            do { _ = try JSONValue.parse(text); return "accepted" } catch { return error.message }
        }
        #expect(message("{\n  \"a\": 1,\n  \"b\": 2\n  \"c\"}") == "expected ',' or '}' after an object member, found '\"' at line 4, column 3")
        #expect(message("[1,]") == "expected a value after ',' (trailing commas are not allowed), found ']' at line 1, column 4")
        #expect(message("{\"a\":1,}") == "expected a string key after ',' (trailing commas are not allowed), found '}' at line 1, column 8")
        #expect(message("[1") == "expected ',' or ']' after an array element, found the end of the input at line 1, column 3")
        #expect(message("01") == "leading zeros are not allowed in numbers at line 1, column 1")
        #expect(message("\"a\u{1}\"") == "control character U+0001 must be escaped in a string at line 1, column 3")
        #expect(message("NaN") == "expected a JSON value, found 'N' (JSON has no NaN or Infinity) at line 1, column 1")
        #expect(message("[1] x") == "expected the end of the input after the JSON value, found 'x' at line 1, column 5")
        #expect(message("\"\\ud800\"") == "\\uD800 is a high surrogate not followed by a low surrogate at line 1, column 2")
    }

    @Test("the error prints its code and message")
    func errorDescription() {
        // Fails if the parser accepts `[}`, as well as if it says something else.
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse("[}") }
        #expect(error.map { "\($0)" } == "unexpected_character: expected a JSON value, found '}' at line 1, column 2")
    }
}
