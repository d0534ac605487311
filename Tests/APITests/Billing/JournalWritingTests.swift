@testable import API
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// A journal page is written without `Codable` (J1–J4's answer, at the speed of its
/// statement): the bytes must be exactly those the encoder writes for the same page.
@Suite("Journal page writing")
struct JournalWritingTests {
    @Test("J1: a streamed page is byte for byte the encoder's page, over generated pages")
    func sameBytesAsTheEncoder() throws {
        try Property.check("journal.streamed", count: 400) { (rng, seed) throws in
            let response = Self.page(&rng)
            let streamed = response.streamedJSON()
            let encoded = try JSONValueEncoder().encodeCompactBytes(response, sortedKeys: true)
            #expect(streamed == encoded, "seed \(seed.hex): \(String(decoding: streamed, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
        }
    }

    @Test("J1: an empty page keeps its account and position")
    func emptyPage() throws {
        let response = JournalEndpoint.Response(account: AccountRef(kind: "project", id: "p"), entries: [], hasMore: false,
                                                nextCursor: nil, position: 0)
        #expect(String(decoding: response.streamedJSON(), as: UTF8.self)
                == #"{"account":{"id":"p","kind":"project"},"entries":[],"has_more":false,"position":0}"#)
    }

    static func page(_ rng: inout SeededRandom) -> JournalEndpoint.Response {
        let entries = (0..<rng.int(0...60)).map { _ in
            JournalEndpoint.Entry(
                id: text(&rng), kind: text(&rng), source: optional(&rng), amount: Millicredits(Int128(Int64.random(in: .min ... .max, using: &rng)) * Int128(rng.int(-3...3))),
                projectID: optional(&rng), pool: text(&rng), month: optional(&rng), holdID: optional(&rng),
                corrects: optional(&rng), correctedBy: (0..<rng.int(0...3)).map { _ in text(&rng) },
                description: text(&rng), postedAt: text(&rng), position: Int64.random(in: .min ... .max, using: &rng))
        }
        return JournalEndpoint.Response(account: AccountRef(kind: text(&rng), id: text(&rng)), entries: entries,
                                        hasMore: rng.chance(0.5), nextCursor: optional(&rng),
                                        position: Int64.random(in: 0 ... .max, using: &rng))
    }

    /// Texts with everything an escape could get wrong: quotes, backslashes, controls,
    /// NUL, DEL, slashes, non-ASCII, and runs long enough for the eight-byte scan.
    static let alphabet: [Character] = Array("aZ09_-:./ \"\\\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}é€😀\u{301}")

    static func text(_ rng: inout SeededRandom) -> String {
        rng.string(from: alphabet, length: rng.int(0...(rng.chance(0.1) ? 40 : 12)))
    }

    static func optional(_ rng: inout SeededRandom) -> String? {
        rng.chance(0.3) ? nil : text(&rng)
    }
}
