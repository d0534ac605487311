import Foundation
import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// What the search box accepts, said on the page (docs/console.md, "Search and lists").
    static let searchAccepts = """
        Finds payers, projects, organizations and apps by id, the start of an id, or any part of a name (any case); \
        users by id or the start of one; journal entries (je_12_0) and App Store transaction ids, whole or their start; \
        event positions, event ids and stream names, whole. Type kind:text to look among one kind only: \
        payer:acme, project:solo, org:…, app:…, user:…, entry:…, transaction:…, event:…, stream:….
        """

    /// Search: one box for anything, its hits ranked, each a link to its page.
    func searchPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let q = String((request.query("q") ?? "").trimmingCharacters(in: .whitespaces).prefix(300))
        var results = ""
        if !q.isEmpty, let found = try queries.answer(DirectorySearchQuery(q), as: viewer.reader) {
            results = found.hits.isEmpty
                ? "<p role=\"status\">Nothing in the log matches <code>\(HTML.escape(q))</code>: no id, id prefix or name of any kind.</p>"
                : Self.searchResults(found, q: q)
        }
        let acts = viewer.state.role.includes(.operator)
            ? "<h2>Acts</h2><ul>" + ConsoleAct.all.map { "<li><a href=\"/acts/\($0.name)\">\(HTML.escape($0.title))</a></li>" }.joined() + "</ul>" : ""
        return HTML.page(title: "Search", body: """
            <form method="get" action="/" role="search">
            <label for="q">Id, name, user, journal entry, transaction, event id or position</label>
            <input id="q" name="q" value="\(HTML.escape(q))" size="50" aria-describedby="accepts"> <button type="submit">Search</button>
            </form>
            <p id="accepts"><small>\(HTML.escape(Self.searchAccepts))</small></p>
            <p>Browse: \(DirectoryKind.allCases.map { "<a href=\"/browse/\($0.plural)\">\($0.title)</a>" }.joined(separator: " · "))</p>
            \(results)
            \(acts)
            """, signedIn: viewer.frame)
    }

    /// The hits as a table, best first, then what more matched.
    static func searchResults(_ found: DirectorySearch, q: String) -> String {
        let rows = found.hits.map { hit -> String in
            let links = Self.links(hit)
            let main = "<a href=\"\(HTML.escape(links[0].href))\">\(HTML.escape(links[0].label))</a>"
                + (hit.name.map { " — " + HTML.escape($0) } ?? "")
            let others = links.dropFirst().map { "<a href=\"\(HTML.escape($0.href))\">\(HTML.escape($0.label))</a>" }.joined(separator: " · ")
            return "<tr><td>\(HTML.escape(hit.kind.rawValue))</td><td>\(main)</td><td>\(Self.activity(hit.lastPosition, hit.lastOccurredAt))</td><td>\(others)</td></tr>"
        }.joined()
        let more = SearchKind.allCases.compactMap { kind -> String? in
            guard let count = found.more[kind] else { return nil }
            let number = count.exact ? "\(count.count)" : "more than \(count.count - 1)"
            if let list = kind.directoryKind {
                return "<li><a href=\"/browse/\(list.plural)?filter=\(HTML.query(DirectorySearchQuery(q).scope.text))\">More \(list.title)…</a> (\(number) match)</li>"
            }
            return "<li>\(number) \(kind == .entry ? "journal entries" : kind.rawValue + "s") match: type more of the id.</li>"
        }
        return """
            <table><caption>\(found.hits.count) \(found.hits.count == 1 ? "match" : "matches"), best first: the exact id, \
            then ids that start with it, then names or words that do, then names that hold it; the latest activity first among equals</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col">Match</th><th scope="col">Last activity</th><th scope="col">Also</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            \(more.isEmpty ? "" : "<ul>" + more.joined() + "</ul>")
            """
    }

    /// The last activity of a record: its position, linked to the event, and its time.
    static func activity(_ position: Int64?, _ at: Timestamp?) -> String {
        guard let position else { return "—" }
        return "<a href=\"/events/\(position)\">position \(position)</a>" + (at.map { " <small>\(HTML.escape($0.iso8601))</small>" } ?? "")
    }

    /// A hit's page first, then its other pages.
    static func links(_ hit: DirectoryHit) -> [(label: String, href: String)] {
        func timeline(_ subject: TimelineSubject) -> (String, String) { ("timeline", "/timeline?subject=" + HTML.query(subject.reference)) }
        switch hit.target {
        case .position(let p):
            return [("event at position \(p)", "/events/\(p)")]
        case .event(let id, let p):
            return [("event \(id) at position \(p)", "/events/\(p)")]
        case .stream(let s):
            return [("timeline of stream \(s)", "/timeline?subject=" + HTML.query("stream:" + s))]
        case .payer(let id), .project(let id):
            let account = (hit.kind == .payer ? "payer:" : "project:") + id
            return [("\(hit.kind.rawValue) \(id)", "/usage?account=" + HTML.query(account)),
                    ("timeline of \(hit.kind.rawValue) \(id)", "/timeline?subject=" + HTML.query(account)),
                    ("journal", "/journal?account=" + HTML.query(account))]
        case .org(let id):
            return [("organization \(id)", "/orgs/" + HTML.query(id)), timeline(.org(id))]
        case .app(let id):
            return [("app \(id)", "/apps/" + HTML.query(id)), timeline(.app(id))]
        case .user(let app, let user):
            return [("user \(user) of app \(app)", "/apps/\(HTML.query(app))/user?user_id=" + HTML.query(user)),
                    ("purchases of user \(user) with app \(app)", "/apps/\(HTML.query(app))?user=" + HTML.query(user))]
        case .entry(let id, let account):
            guard let entry = JournalEntryID(id) else { return [("journal entry \(id) of \(account)", "/journal?account=" + HTML.query(account))] }
            // The journal page that starts at the entry: after the one just before it.
            let before = entry.index > 0 ? JournalEntryID(position: entry.position, index: entry.index - 1)
                : entry.position > 1 ? JournalEntryID(position: entry.position - 1, index: Int32.max) : nil
            let page = "/journal?account=" + HTML.query(account) + (before.map { "&after=" + HTML.query($0.description) } ?? "")
            return [("journal entry \(id) of \(account)", page + "#" + HTML.query(id)), ("event", "/events/\(entry.position)")]
        case .subscription(let id, let org):
            return [("App Store subscription \(id) of organization \(org)", "/orgs/" + HTML.query(org)),
                    ("timeline", "/timeline?subject=" + HTML.query("stream:" + AppStoreTransactionFacts.stream(originalTransactionID: id)))]
        case .purchase(let id, let original, let app, let user):
            return [("App Store transaction \(id) of user \(user) with app \(app)", "/apps/\(HTML.query(app))/user?user_id=" + HTML.query(user)),
                    ("purchases", "/apps/\(HTML.query(app))?user=" + HTML.query(user))]
                + (original == id ? [] : [("original transaction \(original)", "/?q=" + HTML.query("transaction:" + original))])
        }
    }
}
