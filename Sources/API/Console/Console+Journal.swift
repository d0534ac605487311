import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// An account's journal, oldest first, 100 entries a page: each correction linked to
    /// the entry it corrects, and each corrected entry to its corrections, both ways.
    func journalPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let text = request.query("account") ?? ""
        let account: BillingAccount
        switch Pool(text) {
        case .payer(let id)?: account = .payer(id)
        case .project(let id)?: account = .project(id)
        case nil: throw Problem(status: 400, code: "invalid_account", title: "Not an account", detail: "account is payer:ID or project:ID.")
        }
        let after = try request.query("after").map { value -> JournalEntryID in
            guard let id = JournalEntryID(value) else {
                throw Problem(status: 400, code: "invalid_cursor", title: "Not an entry", detail: "after is an entry id, je_POSITION_INDEX.")
            }
            return id
        }
        guard let page = try queries.answer(JournalQuery(account, after: after, limit: 100), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "No such account", detail: "There is no account \(text).")
        }
        func link(_ id: String) -> String {
            guard let entry = JournalEntryID(id) else { return HTML.escape(id) }
            return "<a id=\"to-\(HTML.escape(id))\" href=\"#\(HTML.escape(id))\">\(HTML.escape(id))</a> (<a href=\"/events/\(entry.position)\">event</a>)"
        }
        let entries = page.entries
        let rows = entries.map { entry -> String in
            let id = entry.id.description
            var notes: [String] = []
            if let corrects = entry.corrects { notes.append("corrects " + link(corrects)) }
            if !entry.correctedBy.isEmpty { notes.append("corrected by " + entry.correctedBy.map(link).joined(separator: ", ")) }
            return """
                <tr id="\(HTML.escape(id))"><td><a href="/events/\(entry.id.position)">\(HTML.escape(id))</a></td>
                <td>\(HTML.escape(entry.postedAt))</td><td>\(HTML.escape(entry.kind))\(entry.source.map { " (" + HTML.escape($0) + ")" } ?? "")</td>
                <td style="text-align:right" data-value="\(HTML.escape(entry.amount.description))">\(HTML.escape(entry.amount.creditsText)) <small>(\(HTML.escape(entry.amount.description)) mc)</small></td><td>\(HTML.escape(entry.description))</td>
                <td>\(notes.joined(separator: "; "))</td>\(viewer.state.role.includes(.operator) && entry.corrects == nil
                    ? "<td><a href=\"/acts/correct?entry=\(HTML.query(id))\">Correct</a></td>" : "<td></td>")</tr>
                """
        }.joined()
        let more = page.hasMore
            ? "<p><a href=\"/journal?account=\(HTML.query(text))&amp;after=\(HTML.query(entries.last!.id.description))\">Later entries</a></p>" : ""
        return HTML.page(title: "Journal of \(text)", body: """
            <p>Amounts in credits (1 credit = 1,000 millicredits, mc, the API's unit, beside each). As of position \(page.position) of the log.</p>
            <table><caption>Entries, oldest first</caption><thead><tr><th scope="col">Entry</th><th scope="col">Posted</th>
            <th scope="col">Kind</th><th scope="col">Amount</th><th scope="col">Description</th><th scope="col">Corrections</th>
            <th scope="col"><span class="skip">Act</span></th></tr></thead><tbody>\(rows)</tbody></table>
            \(more)
            """, signedIn: viewer.frame)
    }
}
