import TestSupport
import Foundation
import Testing
@testable import HTTP

@Suite("JSON syntax check")
struct JSONSyntaxCheckTests {
    @Test(arguments: [
        "{}", "[]", "0", "-0.5e+10", "\"a\\u00e9\\n\"", "true", " null ", #"{"a":[1,{"b":false}],"c":"d"}"#, "1E5",
    ])
    func acceptsValidJSON(_ text: String) {
        #expect(JSONSyntaxCheck.firstError(in: Array(text.utf8)) == nil)
    }

    @Test(arguments: [
        ("", 0), ("{", 1), ("[1,]", 3), ("{\"a\" 1}", 5), ("01", 1), ("1.", 2), ("-", 1), ("tru", 0),
        ("\"a\\x\"", 3), ("\"a\nb\"", 2), ("{'a':1}", 1), ("[1] [2]", 4), ("{\"a\":1,}", 7), ("\"abc", 4),
    ])
    func reportsTheOffsetOfTheFirstError(_ text: String, _ offset: Int) throws {
        let failure = try #require(JSONSyntaxCheck.firstError(in: Array(text.utf8)))
        #expect(failure.offset == offset, "\(text.debugDescription): \(failure.message)")
    }

    @Test func countsLinesAndColumns() throws {
        let failure = try #require(JSONSyntaxCheck.firstError(in: Array("{\n  \"a\": 1,\n  \"b\": ?\n}".utf8)))
        #expect(failure.line == 3)
        #expect(failure.column == 8)
    }

    @Test func refusesVeryDeepNesting() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let failure = try #require(JSONSyntaxCheck.firstError(in: Array(deep.utf8)))
        #expect(failure.reason.contains("nesting"))
    }

    /// Property: the checker agrees with Foundation on random texts built from JSON-ish pieces.
    @Test func agreesWithFoundationOnRandomTexts() {
        var random = SeededRandom(seed: 42)
        let pieces = ["{", "}", "[", "]", ",", ":", "\"k\"", "1", "-2.5", "true", "null", " ", "\"\\n\"", "0", "e", "."]
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let ours = JSONSyntaxCheck.firstError(in: Array(text.utf8)) == nil
            let foundation = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil
            #expect(ours == foundation, "\(text)")
        }
    }
}
