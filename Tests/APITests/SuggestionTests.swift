@testable import LedgerCLI
import Testing
import TestSupport

/// "Did you mean": one edit away from a command is a typo; a different word is not.
@Suite("Command suggestions", .bounded)
struct SuggestionTests {
    static let names = ["dev", "serve", "migrate", "project", "replay", "projections", "verify", "bench", "pg", "admin", "audit", "appstore"]

    @Test("every single-character typo of a command of four letters or more suggests that command (or one as near)")
    func singleEdits() throws {
        try Property.check("suggestion.typo", count: 500) { (rng, seed) throws in
            let name = Self.names.filter { $0.count >= 4 }[rng.int(0...(Self.names.filter { $0.count >= 4 }.count - 1))]
            var letters = Array(name)
            let i = rng.int(0...(letters.count - 1))
            switch rng.int(0...3) {
            case 0: letters.remove(at: i)
            case 1: letters[i] = letters[i] == "x" ? "q" : "x"
            case 2 where i + 1 < letters.count: letters.swapAt(i, i + 1)
            default: letters.insert("z", at: i)
            }
            let typed = String(letters)
            #expect(Suggestion.nearest(to: typed, among: Self.names) == name || Suggestion.distance(typed, Suggestion.nearest(to: typed, among: Self.names) ?? "") <= 1,
                    "seed \(seed.hex): \(typed) suggested \(Suggestion.nearest(to: typed, among: Self.names) ?? "nothing") for \(name)")
        }
    }

    @Test("the distance is symmetric, zero only for equal words, and words far from every command get nothing")
    func distanceAndUnrelatedWords() {
        #expect(Suggestion.distance("verify", "verfy") == 1)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("craete", "create") == 1)
        #expect(Suggestion.distance("", "abc") == 3)
        for a in Self.names { for b in Self.names { #expect(Suggestion.distance(a, b) == Suggestion.distance(b, a)) } }
        for word in ["deploy", "status", "hello", "x"] { #expect(Suggestion.nearest(to: word, among: Self.names) == nil, "\(word)") }
    }
}
