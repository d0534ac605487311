@testable import API
import LedgerDomain
import LedgerJSON
import Postgres
import Projections
import Testing
import TestSupport
import LedgerServices

/// A journal page is written straight from the statement's rows, without `Codable` (J1–J4's
/// answer, at the speed of its statement): the bytes must be exactly those the encoder
/// writes for the same page, and the page must read back the values the rows hold.
@Suite("Journal page writing", .bounded)
struct JournalWritingTests {
    @Test("J1: a page written from its rows is byte for byte the encoder's page, over generated pages")
    func sameBytesAsTheEncoder() throws {
        try Property.check("journal.streamed", count: 400) { (rng, seed) throws in
            let expected = Self.page(&rng)
            let limit = max(1, expected.entries.count + (expected.hasMore ? 0 : rng.int(0...3)))
            let page = try #require(try JournalPage(rows: Self.rows(expected, limit: limit), limit: limit))
            #expect(page.entries == expected.entries.map(\.value), "seed \(seed.hex)")
            #expect(page.hasMore == expected.hasMore && page.position == expected.position, "seed \(seed.hex)")
            let streamed = JournalEndpoint.Response(account: expected.account, page: page, nextCursor: expected.nextCursor).streamedJSON()
            let encoded = try JSONValueEncoder().encodeCompactBytes(expected, sortedKeys: true)
            #expect(streamed == encoded, "seed \(seed.hex): \(String(decoding: streamed, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
        }
    }

    @Test("J1: an empty page keeps its account and position, and says next_cursor null")
    func emptyPage() throws {
        let empty = Reference(account: AccountRef(kind: "project", id: "p"), entries: [], hasMore: false, nextCursor: nil, position: 7)
        let page = try #require(try JournalPage(rows: Self.rows(empty, limit: 50), limit: 50))
        #expect(page.count == 0)
        #expect(String(decoding: JournalEndpoint.Response(account: empty.account, page: page, nextCursor: nil).streamedJSON(), as: UTF8.self)
                == #"{"account":{"id":"p","kind":"project"},"entries":[],"has_more":false,"next_cursor":null,"position":7}"#)
    }

    @Test("J4: rows that say the account does not exist are no page; rows with a NULL required member are an error")
    func missingAccountAndBrokenRows() throws {
        let unknown = try #require(PostgresResult(columns: Self.columns, rows: [["f", "7"] + Array(repeating: nil, count: 14)]))
        #expect(try JournalPage(rows: unknown, limit: 50) == nil)
        var rng = SeededRandom(seed: 1)
        var one = Self.page(&rng)
        one.entries = [ReferenceEntry(value: Self.entry(&rng))]
        one.hasMore = false
        var layout = Self.layout(one, limit: 5)
        layout[0][JournalPage.Text.kind.rawValue] = nil
        let broken = try #require(PostgresResult(columns: Self.columns, rows: layout))
        #expect(throws: PostgresError.self) { try JournalPage(rows: broken, limit: 5) }
    }

    // MARK: - The reference: the page as `Codable` values

    struct Reference: Encodable {
        var account: AccountRef
        var entries: [ReferenceEntry]
        var hasMore: Bool
        var nextCursor: String?
        var position: Int64

        enum CodingKeys: String, CodingKey {
            case account, entries, position
            case hasMore = "has_more", nextCursor = "next_cursor"
        }

        /// `next_cursor` always there, null when nil (the OpenAPI document requires it).
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(account, forKey: .account)
            try c.encode(entries, forKey: .entries)
            try c.encode(hasMore, forKey: .hasMore)
            try c.encode(nextCursor, forKey: .nextCursor)
            try c.encode(position, forKey: .position)
        }
    }

    struct ReferenceEntry: Encodable {
        var value: JournalPage.Entry

        enum CodingKeys: String, CodingKey {
            case id, kind, source, amount, pool, month, corrects, description, position
            case projectID = "project_id", holdID = "hold_id", correctedBy = "corrected_by", postedAt = "posted_at"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(value.id.description, forKey: .id)
            try c.encode(value.kind, forKey: .kind)
            try c.encodeIfPresent(value.source, forKey: .source)
            try c.encode(value.amount, forKey: .amount)
            try c.encodeIfPresent(value.projectID, forKey: .projectID)
            try c.encode(value.pool, forKey: .pool)
            try c.encodeIfPresent(value.month, forKey: .month)
            try c.encodeIfPresent(value.holdID, forKey: .holdID)
            try c.encodeIfPresent(value.corrects, forKey: .corrects)
            try c.encode(value.correctedBy, forKey: .correctedBy)
            try c.encode(value.description, forKey: .description)
            try c.encode(value.postedAt, forKey: .postedAt)
            try c.encode(value.id.position, forKey: .position)
        }
    }

    // MARK: - Generated pages, laid out as the statement's rows

    static let columns = ["found", "reached", "entry_id", "kind", "source", "amount", "project_id", "pool", "month", "hold_id",
                          "corrects", "description", "posted_at", "position", "idx", "corrected_by"]

    /// The rows of `BillingReadModel.journalPageStatement` for `page` read with `limit`:
    /// one more entry than `limit` when more follow, one row of NULLs when it is empty.
    static func rows(_ page: Reference, limit: Int) throws -> PostgresResult {
        try #require(PostgresResult(columns: columns, rows: layout(page, limit: limit)))
    }

    static func layout(_ page: Reference, limit: Int) -> [[String?]] {
        let head: [String?] = ["t", String(page.position)]
        var entries = page.entries.map(\.value)
        if page.hasMore, let last = entries.last {
            entries += [last]  // The extra row the statement reads to know that more follow.
        }
        if entries.isEmpty { return [head + Array(repeating: nil, count: 14)] }
        return entries.map { e in
            head + [e.id.description, e.kind, e.source, e.amount.canonical, e.projectID, e.pool, e.month, e.holdID,
                    e.corrects, e.description, e.postedAt, String(e.id.position), String(e.id.index),
                    e.correctedBy.isEmpty ? nil : e.correctedBy.joined(separator: ",")]
        }
    }

    static func page(_ rng: inout SeededRandom) -> Reference {
        let entries = (0..<rng.int(0...60)).map { _ in ReferenceEntry(value: entry(&rng)) }
        return Reference(account: AccountRef(kind: text(&rng), id: text(&rng)), entries: entries,
                         hasMore: !entries.isEmpty && rng.chance(0.5), nextCursor: optional(&rng),
                         position: Int64.random(in: 0 ... .max, using: &rng))
    }

    static func entry(_ rng: inout SeededRandom) -> JournalPage.Entry {
        JournalPage.Entry(
            id: JournalEntryID(position: Int64.random(in: 1 ... .max, using: &rng), index: Int32.random(in: 0 ... .max, using: &rng)),
            kind: text(&rng), source: optional(&rng),
            amount: Millicredits(Int128(Int64.random(in: .min ... .max, using: &rng)) * Int128(rng.int(-3...3))),
            projectID: optional(&rng), pool: text(&rng), month: optional(&rng), holdID: optional(&rng),
            corrects: optional(&rng), correctedBy: (0..<rng.int(0...3)).map { _ in "c" + text(&rng) },
            description: text(&rng), postedAt: text(&rng))
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
