import Testing
import TestSupport
@testable import LedgerJSON

/// The parser against PostgreSQL's own JSON parser: the same texts accepted and refused,
/// and the same canonical text for what is accepted.
@Suite("PostgreSQL: parser agrees with jsonb input", .serialized, .bounded)
struct PostgresParserDifferentialTests {
    @Test("3000 generated texts with duplicates, escapes and whitespace, and 3000 mutated ones")
    func differential() throws {
        let server = try JSONBServer()
        var texts: [String] = []
        var seeds: [UInt64] = []
        try Property.check("pg.texts", count: 3000) { (rng, seed) throws in
            let text = JSONTextGen.text(&rng)
            texts.append(text)
            seeds.append(seed)
            texts.append(JSONTextGen.mutate(text, &rng))
            seeds.append(seed)
        }
        let outcomes = try server.outcomes(texts, batchSize: 300)
        var failures = 0
        var accepted = 0
        for (i, text) in texts.enumerated() {
            let ours = ledgerOutcome(text)
            if ours.canonical != nil { accepted += 1 }
            if !sameBytes(ours.canonical, outcomes[i].text) {
                failures += 1
                if failures <= 8 {
                    Issue.record("seed \(seeds[i].hex) text \(text.debugDescription): ours \(ours.canonical ?? ours.reason) server \(outcomes[i])")
                }
            }
        }
        #expect(failures == 0)
        // Both halves must really be exercised.
        if !Property.isReplaying {
            #expect(accepted > 3000 && accepted < 5800, "accepted \(accepted) of \(texts.count)")
        }
    }

    @Test("the rejection table is rejected by the server too")
    func rejectionTable() throws {
        let server = try JSONBServer()
        // Only texts a text parameter can carry: valid UTF-8 without NUL bytes.
        let cases = ParserRejectionTests.cases.filter { String(validating: $0.bytes, as: UTF8.self) != nil && !$0.bytes.contains(0) }
        let texts = cases.map { String(decoding: $0.bytes, as: UTF8.self) }
        for (text, outcome) in zip(texts, try server.outcomes(texts, batchSize: 20)) {
            #expect(outcome.text == nil, "\(text.debugDescription): \(outcome)")
        }
        let accepted = ParserAcceptanceTests.cases.map(\.text)
        for ((text, value), outcome) in zip(ParserAcceptanceTests.cases, try server.outcomes(accepted)) {
            if (try? value.validateForJSONB()) != nil {
                #expect(outcome == .accepted(value.canonicalText), "\(text.debugDescription)")
            } else {
                #expect(outcome.text == nil, "\(text.debugDescription)")
            }
        }
    }
}
