import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// A list of one kind (`/browse/payers`, …), by name or by last activity, either way,
    /// page by page through an opaque cursor, optionally filtered as the search matches.
    func directoryPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        guard let kind = DirectoryKind.allCases.first(where: { $0.plural == request.pathParameters["kind"] }) else {
            throw Problem(status: 404, code: "not_found", title: "No such list",
                          detail: "The lists are \(DirectoryKind.allCases.map { "/browse/" + $0.plural }.joined(separator: ", ")).")
        }
        let sortText = request.query("sort") ?? "name"
        guard let sort = DirectoryListQuery.Sort(rawValue: sortText) else {
            throw Problem(status: 400, code: "invalid_sort", title: "Unknown order", detail: "sort is name or activity.")
        }
        let descending: Bool?
        switch request.query("order") {
        case nil, "": descending = nil
        case "asc": descending = false
        case "desc": descending = true
        default: throw Problem(status: 400, code: "invalid_sort", title: "Unknown order", detail: "order is asc or desc.")
        }
        let filter = String((request.query("filter") ?? "").prefix(300))
        guard let limit = Int(request.query("limit") ?? String(DirectoryListQuery.defaultLimit)) else {
            throw Problem(status: 400, code: "invalid_limit", title: "Not a number", detail: "limit is 1 to \(DirectoryListQuery.maximumLimit).")
        }
        let query: DirectoryListQuery
        do {
            query = try DirectoryListQuery(kind, sort: sort, descending: descending, filter: filter, cursor: request.query("cursor"), limit: limit)
        } catch {
            throw Problem(status: 400, code: error.code, title: "Not this list's", detail: error.description + ".")
        }
        let page = try queries.answer(query, as: viewer.reader) ?? DirectoryPage(items: [], next: nil)
        func href(sort: DirectoryListQuery.Sort, descending: Bool, cursor: String? = nil) -> String {
            "/browse/\(kind.plural)?sort=\(sort.rawValue)&order=\(descending ? "desc" : "asc")"
                + (filter.isEmpty ? "" : "&filter=" + HTML.query(filter)) + (limit == DirectoryListQuery.defaultLimit ? "" : "&limit=\(limit)")
                + (cursor.map { "&cursor=" + HTML.query($0) } ?? "")
        }
        let orders: [(String, DirectoryListQuery.Sort, Bool)] = [
            (kind == .user ? "by app and user id" : "by name, A to Z", .name, false),
            (kind == .user ? "by app and user id, reversed" : "by name, Z to A", .name, true),
            ("latest activity first", .activity, true), ("earliest activity first", .activity, false),
        ]
        let sorts = orders.map { label, s, d in
            s == query.sort && d == query.descending ? "<strong aria-current=\"true\">\(label)</strong>"
                : "<a href=\"\(HTML.escape(href(sort: s, descending: d)))\">\(label)</a>"
        }.joined(separator: " · ")
        let head = kind == .user
            ? "<th scope=\"col\">App</th><th scope=\"col\">User</th><th scope=\"col\">Last activity</th>"
            : "<th scope=\"col\">Id</th><th scope=\"col\">Name</th><th scope=\"col\">Last activity</th>"
        let rows = page.items.map { item -> String in
            let activity = Self.activity(item.lastPosition, item.lastOccurredAt)
            if kind == .user, let app = item.app {
                return "<tr><td><a href=\"/apps/\(HTML.query(app))\">\(HTML.escape(app))</a></td><td><a href=\"/apps/\(HTML.query(app))/user?user_id=\(HTML.query(item.id))\">\(HTML.escape(item.id))</a></td><td>\(activity)</td></tr>"
            }
            return "<tr><td><a href=\"\(HTML.escape(Self.page(of: kind, item.id)))\">\(HTML.escape(item.id))</a></td><td>\(HTML.escape(item.name ?? ""))</td><td>\(activity)</td></tr>"
        }.joined()
        let table = rows.isEmpty
            ? "<p role=\"status\">\(filter.isEmpty ? "No \(kind.title) here." : "No \(kind.title) match <code>\(HTML.escape(filter))</code>.")</p>"
            : "<table><caption>\(page.items.count) \(kind.title), \(HTML.escape(orders.first { $0.1 == query.sort && $0.2 == query.descending }?.0 ?? ""))</caption><thead><tr>\(head)</tr></thead><tbody>\(rows)</tbody></table>"
        let cut = page.filterCut.map { "<p>More than \($0) \(kind.title) match: this list orders the best \($0) by the search's ranking. Type more to narrow it.</p>" } ?? ""
        let next = page.next.map { "<p><a rel=\"next\" href=\"\(HTML.escape(href(sort: query.sort, descending: query.descending, cursor: $0.description)))\">Next page</a></p>" } ?? ""
        let first = query.cursor == nil ? "" : "<p><a href=\"\(HTML.escape(href(sort: query.sort, descending: query.descending)))\">First page</a></p>"
        let matching = kind == .user ? "the start of a user id, any case" : "an id, its start, or any part of a name, any case"
        return HTML.page(title: kind.title.prefix(1).uppercased() + kind.title.dropFirst(), body: """
            <p>\(DirectoryKind.allCases.map { $0 == kind ? "<strong>\($0.title)</strong>" : "<a href=\"/browse/\($0.plural)\">\($0.title)</a>" }.joined(separator: " · "))</p>
            <form method="get" action="/browse/\(kind.plural)" role="search">
            <input type="hidden" name="sort" value="\(query.sort.rawValue)"><input type="hidden" name="order" value="\(query.descending ? "desc" : "asc")">
            <label for="filter">Filter: \(matching)</label>
            <input id="filter" name="filter" value="\(HTML.escape(filter))" size="40"> <button type="submit">Filter</button>
            </form>
            <p>Order: \(sorts)</p>
            \(cut)\(table)\(next)\(first)
            """, signedIn: viewer.frame)
    }

    /// The page of a named record.
    static func page(of kind: DirectoryKind, _ id: String) -> String {
        switch kind {
        case .payer: return "/usage?account=" + HTML.query("payer:" + id)
        case .project: return "/usage?account=" + HTML.query("project:" + id)
        case .org: return "/orgs/" + HTML.query(id)
        case .app, .user: return "/apps/" + HTML.query(id)
        }
    }
}
