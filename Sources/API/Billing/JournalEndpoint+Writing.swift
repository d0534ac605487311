import LedgerJSON
import LedgerServices

// A page is written member by member from the statement's rows rather than through
// `Codable`, whose walk over 50 entries of 13 fields cost three times the statement that
// read them. Members go in sorted order and absent optionals are left out (but for
// `next_cursor`, always there: null only when the account has no entry at all, as the
// OpenAPI document declares it), so the bytes are those the encoder writes for the same
// page: `JournalWritingTests` compares the two on generated pages.

extension JournalEndpoint.Response: JSONStreamWritable {
    func write(to w: inout JSONStreamWriter) {
        w.object { (w: inout JSONStreamWriter) in
            w.key("account")
            w.object { (w: inout JSONStreamWriter) in
                w.member("id", account.id)
                w.member("kind", account.kind)
            }
            w.key("entries")
            w.array { (w: inout JSONStreamWriter) in
                for i in 0..<page.count { Self.writeEntry(i, of: page, to: &w) }
            }
            w.member("has_more", page.hasMore)
            w.member("next_cursor", orNull: nextCursor)
            w.member("position", page.position)
        }
    }

    private static func writeEntry(_ i: Int, of page: JournalQuery.Page, to w: inout JSONStreamWriter) {
        w.object { (w: inout JSONStreamWriter) in
            w.member("amount", page.amount(at: i).canonical)
            w.key("corrected_by")
            page.withText(.correctedBy, at: i) { list in
                w.array { (w: inout JSONStreamWriter) in
                    for id in list?.split(separator: UInt8(ascii: ",")) ?? [] { w.string(utf8: UnsafeBufferPointer(rebasing: id)) }
                }
            }
            page.withText(.corrects, at: i) { w.member("corrects", ifPresent: $0) }
            page.withText(.description, at: i) { w.member("description", ifPresent: $0) }
            page.withText(.holdID, at: i) { w.member("hold_id", ifPresent: $0) }
            w.member("id", page.id(at: i).description)
            page.withText(.kind, at: i) { w.member("kind", ifPresent: $0) }
            page.withText(.month, at: i) { w.member("month", ifPresent: $0) }
            page.withText(.pool, at: i) { w.member("pool", ifPresent: $0) }
            w.member("position", page.id(at: i).position)
            page.withText(.postedAt, at: i) { w.member("posted_at", ifPresent: $0) }
            page.withText(.projectID, at: i) { w.member("project_id", ifPresent: $0) }
            page.withText(.source, at: i) { w.member("source", ifPresent: $0) }
        }
    }
}
