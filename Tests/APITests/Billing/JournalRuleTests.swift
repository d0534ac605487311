import API
import HTTP
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

@Suite("Journal (J1–J4)", .bounded)
struct JournalRuleTests {
    func ids(_ page: JSONValue) -> [String] { page["entries"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }

    @Test("J1: cursor pages never skip or repeat an entry, even while entries are added; a cursor means the same forever")
    func j1StableCursor() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        for i in 1...7 { _ = try f.credit(.project("solo"), .grant, Int64(i)) }
        var seen: [String] = []
        var cursor: String?
        var firstCursor: String?
        var firstPageAfterCursor: [String]?
        var added = 0
        var more = true
        while more {
            let path = "/v1/projects/solo/journal?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
            let (status, page, _) = try f.get(path, key: key)
            #expect(status == 200)
            seen += ids(page)
            more = page["has_more"] == true
            cursor = page["next_cursor"]?.stringValue
            if firstCursor == nil, let cursor {
                firstCursor = cursor
                let (_, again, _) = try f.get("/v1/projects/solo/journal?limit=3&cursor=\(cursor)", key: key)
                firstPageAfterCursor = ids(again)
            }
            if added < 3 { _ = try f.credit(.project("solo"), .grant, 100); added += 1 }   // new entries arrive meanwhile
        }
        #expect(cursor != nil, "the last page still hands out a cursor to come back with")
        // Entries posted after the end was reached are found from the last cursor.
        _ = try f.credit(.project("solo"), .grant, 5)
        let (_, tail, _) = try f.get("/v1/projects/solo/journal?limit=3&cursor=\(cursor!)", key: key)
        seen += ids(tail)
        let (_, empty, _) = try f.get("/v1/projects/solo/journal?limit=3&cursor=\(tail["next_cursor"]!.stringValue!)", key: key)
        #expect(ids(empty).isEmpty && empty["has_more"] == false)
        #expect(empty["next_cursor"] == tail["next_cursor"], "an empty page hands back the same cursor")
        #expect(seen.count == 11)
        #expect(Set(seen).count == seen.count, "no entry repeated")
        #expect(seen == seen.sorted { JournalEntryID($0)! < JournalEntryID($1)! }, "oldest first")
        let (_, later, _) = try f.get("/v1/projects/solo/journal?limit=3&cursor=\(firstCursor!)", key: key)
        #expect(ids(later) == firstPageAfterCursor, "the same cursor gives the same page later")
        // A full page of the default size.
        let (_, all, _) = try f.get("/v1/projects/solo/journal", key: key)
        #expect(ids(all) == seen)
    }

    @Test("J1: next_cursor is always in the page: null only for an account with no entry, a cursor on the last page (docs/billing.md)")
    func j1NextCursorAlwaysPresent() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let (status, none, _) = try f.get("/v1/projects/solo/journal", key: key)
        #expect(status == 200)
        #expect(none.objectValue?.keys.contains("next_cursor") == true, "present, not left out: \(none)")
        #expect(none["next_cursor"] == .null && ids(none).isEmpty && none["has_more"] == false)
        _ = try f.credit(.project("solo"), .grant, 1)
        let last = try f.get("/v1/projects/solo/journal", key: key).body
        #expect(last["has_more"] == false && ids(last).count == 1)
        let cursor = try #require(last["next_cursor"]?.stringValue, "the last page still hands out a cursor: \(last)")
        let after = try f.get("/v1/projects/solo/journal?cursor=\(cursor)", key: key).body
        #expect(after["next_cursor"] == .string(cursor), "an empty page after it hands back the cursor sent")
    }

    @Test("J1: a malformed, altered or foreign cursor and a bad limit are 400 problems")
    func j1BadCursor() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("a")
        try f.project("b")
        let keyA = try f.key(for: KeyPrincipal(kind: .project, id: "a"))
        let keyB = try f.key(for: KeyPrincipal(kind: .project, id: "b"))
        for i in 1...3 { _ = try f.credit(.project("a"), .grant, Int64(i)); _ = try f.credit(.project("b"), .grant, Int64(i)) }
        let cursorB = try #require(try f.get("/v1/projects/b/journal?limit=1", key: keyB).body["next_cursor"]?.stringValue)
        var altered = Array(cursorB)
        altered[5] = altered[5] == "A" ? "B" : "A"
        for bad in ["", "x", "%%%", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", String(altered), cursorB,
                    String(repeating: "A", count: 500)] {
            let (status, body, _) = try f.get("/v1/projects/a/journal?cursor=\(bad.addingPercentEncodingForQuery)", key: keyA)
            #expect(status == 400, "cursor \(bad)")
            #expect(body["code"] == "invalid_cursor", "cursor \(bad)")
        }
        for limit in ["0", "201", "-1", "abc", "1.5", "01"] {
            let (status, body, _) = try f.get("/v1/projects/a/journal?limit=\(limit)", key: keyA)
            #expect(status == 400 && body["code"] == "invalid_parameter", "limit \(limit)")
        }
    }

    @Test("J2: holds never appear in the journal; they only reduce what is available")
    func j2HoldsAreNotEntries() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        _ = try f.credit(.project("solo"), .grant, 1_000)
        try f.append(HoldPlaced(holdID: "h", projectID: "solo", pool: .project("solo"), amount: Millicredits(400), description: "x"), stream: "hold-h")
        var (_, page, _) = try f.get("/v1/projects/solo/journal", key: key)
        #expect(page["entries"]?.arrayValue?.count == 1)
        #expect(try f.get("/v1/projects/solo/balance", key: key).body["available"] == "600")
        // Once captured, the captured part is posted.
        try f.append(HoldCaptured(holdID: "h", amount: Millicredits(250)), stream: "hold-h")
        (_, page, _) = try f.get("/v1/projects/solo/journal", key: key)
        let entries = try #require(page["entries"]?.arrayValue)
        #expect(entries.map { $0["kind"] } == ["credit", "hold_capture"])
        #expect(entries[1]["amount"] == "-250")
        let b = try f.get("/v1/projects/solo/balance", key: key).body
        #expect(b["held"] == "0" && b["available"] == "750")
    }

    @Test("J3: a correction is a new entry that names the original; the original stays and shows it was corrected")
    func j3Corrections() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let original = try f.credit(.project("solo"), .grant, 10_000)
        let originalID = JournalEntryID(position: original.position, index: 0).description
        let before = try f.get("/v1/projects/solo/journal", key: key).body["entries"]![0]!
        let correction = try f.append(EntryCorrected(entryID: originalID, amount: Millicredits(-9_000), reason: "typo: one zero too many"),
                                      stream: "project-solo", corrects: original.position)
        let entries = try #require(try f.get("/v1/projects/solo/journal", key: key).body["entries"]?.arrayValue)
        #expect(entries.count == 2)
        var unchanged = entries[0]
        #expect(unchanged["corrected_by"] == [.string(JournalEntryID(position: correction.position, index: 0).description)])
        if case .object(var m) = unchanged { m["corrected_by"] = before["corrected_by"]; unchanged = .object(m) }
        #expect(unchanged == before, "the original entry is unchanged but for the link to its correction")
        #expect(entries[1]["kind"] == "correction")
        #expect(entries[1]["corrects"] == .string(originalID))
        #expect(entries[1]["amount"] == "-9000")
        #expect(entries[1]["description"] == "typo: one zero too many")
        let b = try f.get("/v1/projects/solo/balance", key: key).body
        #expect(b["sources"]?["correction"]?["posted"] == "-9000")
        #expect(b["available"] == "1000")
        // The log names the corrected position, for auditors.
        let row = try f.service.db.connect().query("SELECT corrects_position FROM events WHERE position = $1", [correction.position])
        #expect(row[0].int64(0) == original.position)
    }

    @Test("J4: nothing on the public HTTP surface can add credit or post a payment")
    func j4NoMutation() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let mutating = LedgerAPI.router(f.service.context).routes.filter { $0.method != "GET" && $0.method != "HEAD" }
        // Besides usage ingestion, the only writes record verified Apple transactions: the
        // App Store's (T, N) change plans, the SDK's sync fills a purchase history, and Stripe's
        // verified events record what users hold on the web; none credits an account or posts
        // a payment to its journal. The promotional offer signature is a POST that appends nothing.
        #expect(mutating.map(\.pattern) == ["/v1/usage/events", "/v1/orgs/{org_id}/appstore/transactions",
                                            "/v1/appstore/notifications/production", "/v1/appstore/notifications/sandbox",
                                            "/v1/appstore/offers/signature", "/v1/iap/transactions", "/v1/stripe/webhooks/{app_id}"])
        for (method, path) in [("POST", "/v1/projects/solo/journal"), ("POST", "/v1/projects/solo/balance"),
                               ("PUT", "/v1/projects/solo/balance"), ("POST", "/v1/projects/solo/credits"),
                               ("DELETE", "/v1/projects/solo/journal")] {
            let r = try f.service.client().send(method: method, path: path, headers: [("Authorization", "Bearer " + key)],
                                                body: Array(#"{"amount":"1000000"}"#.utf8))
            #expect(r.status == 405 || r.status == 404, "\(method) \(path)")
        }
        // And usage ingestion refuses a project key: it cannot even record usage.
        let r = try f.post("/v1/usage/events", key: key, body: ["events": []])
        #expect(r.status == 403)
        #expect(try f.get("/v1/projects/solo/balance", key: key).body["posted"] == "0")
    }
}

extension String {
    var addingPercentEncodingForQuery: String {
        addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? self
    }
}

import Foundation
