import LedgerJSON

// A page is written member by member rather than through `Codable`, whose walk over 50
// entries of 13 fields cost three times the statement that read them. Members go in
// sorted order and absent optionals are left out, so the bytes are those the encoder
// writes for the same value: `JournalWritingTests` compares the two on generated pages.

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
                for entry in entries { entry.write(to: &w) }
            }
            w.member("has_more", hasMore)
            w.member("next_cursor", ifPresent: nextCursor)
            w.member("position", position)
        }
    }
}

extension JournalEndpoint.Entry: JSONStreamWritable {
    func write(to w: inout JSONStreamWriter) {
        w.object { (w: inout JSONStreamWriter) in
            w.member("amount", amount.canonical)
            w.member("corrected_by", correctedBy)
            w.member("corrects", ifPresent: corrects)
            w.member("description", description)
            w.member("hold_id", ifPresent: holdID)
            w.member("id", id)
            w.member("kind", kind)
            w.member("month", ifPresent: month)
            w.member("pool", pool)
            w.member("position", position)
            w.member("posted_at", postedAt)
            w.member("project_id", ifPresent: projectID)
            w.member("source", ifPresent: source)
        }
    }
}
