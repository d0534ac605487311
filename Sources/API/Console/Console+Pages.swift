import Foundation
import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// Search: a position, an event id, a payer, project, organization or app id, an App
    /// Store original transaction id, or a stream's name; each match is a link.
    func searchPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let q = (request.query("q") ?? "").trimmingCharacters(in: .whitespaces)
        var results = ""
        if !q.isEmpty {
            let found = try search(String(q.prefix(300)), viewer)
            results = found.isEmpty
                ? "<p role=\"status\">Nothing in the log matches <code>\(HTML.escape(q))</code>.</p>"
                : "<h2>Matches</h2><ul>" + found.map { "<li><a href=\"\(HTML.escape($0.href))\">\(HTML.escape($0.label))</a></li>" }.joined() + "</ul>"
        }
        let acts = viewer.state.role.includes(.operator)
            ? "<h2>Acts</h2><ul>" + ConsoleAct.all.map { "<li><a href=\"/acts/\($0.name)\">\(HTML.escape($0.title))</a></li>" }.joined() + "</ul>" : ""
        return HTML.page(title: "Search", body: """
            <form method="get" action="/" role="search">
            <label for="q">Organization, project, payer, app, user id, transaction id, event id, position or stream</label>
            <input id="q" name="q" value="\(HTML.escape(q))" size="50"> <button type="submit">Search</button>
            </form>
            \(results)
            \(acts)
            """, signedIn: viewer.frame)
    }

    /// Each match of a search as a link, in the order the query found them.
    func search(_ q: String, _ viewer: Viewer) throws -> [(label: String, href: String)] {
        try (queries.answer(LogSearchQuery(q), as: viewer.reader) ?? []).flatMap { match -> [(label: String, href: String)] in
            switch match {
            case .position(let position):
                return [("event at position \(position)", "/events/\(position)")]
            case .event(let id, let position):
                return [("event \(id) at position \(position)", "/events/\(position)")]
            case .subject(let subject, let label):
                var links = [("timeline of \(label)", "/timeline?subject=" + HTML.query(subject.reference))]
                switch subject {
                case .org: links.append(("plan and subscriptions of \(label)", "/orgs/" + HTML.query(q)))
                case .app: links.append(("catalog of \(label)", "/apps/" + HTML.query(q)))
                case .payer, .project:
                    links.append(("journal of \(label)", "/journal?account=" + HTML.query(subject.reference)))
                    links.append(("balance and usage of \(label)", "/usage?account=" + HTML.query(subject.reference)))
                case .stream: break
                }
                return links
            case .purchases(let app, let count):
                return [("purchases of user \(q) with app \(app) (\(count))", "/apps/" + HTML.query(app) + "?user=" + HTML.query(q))]
            }
        }
    }

    /// `kind:id`, as the search links write it.
    static func subject(_ text: String) throws -> TimelineSubject {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let subject = TimelineSubject(kind: parts[0], id: parts[1]) else {
            throw Problem(status: 400, code: "invalid_subject", title: "Unknown subject",
                          detail: "subject is kind:id, with kind one of \(TimelineSubject.options.joined(separator: ", ")).")
        }
        return subject
    }

    /// Every event of a subject: when, what, who and why, with links to corrections and
    /// to the events they correct.
    func timelinePage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let subject = try Self.subject(request.query("subject") ?? "")
        let after = Int64(request.query("after") ?? "0") ?? 0
        guard let page = try queries.answer(TimelineQuery(subject, after: after, limit: 200), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "Not found", detail: "There is no timeline of \(subject.description).")
        }
        let events = page.events
        let rows = events.map { event -> String in
            let metadata = try? event.metadata()
            let corrects = event.correctsPosition.map { " — corrects <a href=\"/events/\($0)\">position \($0)</a>" } ?? ""
            return """
                <tr><td><a href="/events/\(event.position)">\(event.position)</a></td><td>\(HTML.escape(event.recordedAt.iso8601))</td>
                <td><code>\(HTML.escape(event.type))</code>\(corrects)</td><td>\(HTML.escape(event.stream))</td>
                <td>\(HTML.escape(metadata?.actor.description ?? ""))</td><td>\(HTML.escape(metadata?.reason ?? ""))</td></tr>
                """
        }.joined()
        let more = page.hasMore
            ? "<p><a href=\"/timeline?subject=\(HTML.query(request.query("subject") ?? ""))&amp;after=\(events[events.count - 1].position)\">Later events</a></p>" : ""
        let table = rows.isEmpty ? "<p role=\"status\">No events.</p>" : """
            <table><caption>Events, oldest first</caption><thead><tr><th scope="col">Position</th><th scope="col">Recorded</th>
            <th scope="col">Type</th><th scope="col">Stream</th><th scope="col">Actor</th><th scope="col">Reason</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return HTML.page(title: "Timeline of \(subject.description)", body: table + more, signedIn: viewer.frame)
    }

    /// One event, whole: its fields as the log holds them, its metadata, the event it
    /// corrects and the corrections that name it.
    func eventPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        guard let position = Int64(request.pathParameters["position"] ?? ""), position > 0 else {
            throw Problem(status: 400, code: "invalid_position", title: "Not a position", detail: "A position is a positive integer.")
        }
        guard let (event, corrections) = try queries.answer(LogEventQuery(at: position), as: viewer.reader).map({ ($0.event, $0.corrections) }) else {
            throw Problem(status: 404, code: "not_found", title: "No such event",
                          detail: "The log holds no event at position \(position) (or it is archived).")
        }
        let metadata = try? event.metadata()
        func row(_ name: String, _ value: String) -> String { "<tr><th scope=\"row\">\(name)</th><td>\(value)</td></tr>" }
        var rows = [
            row("Position", String(event.position)), row("Event id", "<code>\(event.eventID.uuidString.lowercased())</code>"),
            row("Stream", "<a href=\"/timeline?subject=\(HTML.query("stream:" + event.stream))\">\(HTML.escape(event.stream))</a> (version \(event.streamVersion))"),
            row("Type", "<code>\(HTML.escape(event.type))</code>"),
            row("Occurred", HTML.escape(event.occurredAt.iso8601)), row("Recorded", HTML.escape(event.recordedAt.iso8601)),
            row("Actor", HTML.escape(metadata?.actor.description ?? "")), row("Reason", HTML.escape(metadata?.reason ?? "")),
            row("Request", HTML.escape(metadata?.requestID ?? "")), row("Causation", HTML.escape(metadata?.causationID ?? "")),
        ]
        if let original = event.correctsPosition {
            rows.append(row("Corrects", "<a href=\"/events/\(original)\">the event at position \(original)</a>"))
        }
        if !corrections.isEmpty {
            rows.append(row("Corrected by", corrections.map { "<a href=\"/events/\($0)\">position \($0)</a>" }.joined(separator: ", ")))
        }
        rows.append(row("Data", "<pre>\(HTML.escape(event.dataText))</pre>"))
        rows.append(row("Metadata", "<pre>\(HTML.escape(event.metadataText))</pre>"))
        rows.append(row("Hash", "<code>\(event.hash.map { String($0, radix: 16).leftPadded(to: 2) }.joined())</code>"))
        let act = viewer.state.role.includes(.operator)
            ? "<p><a href=\"/acts/correct?entry=je_\(position)_0\">Correct this event's journal entry</a></p>" : ""
        return HTML.page(title: "Event \(position)", body: "<table>\(rows.joined())</table>" + act, signedIn: viewer.frame)
    }
}
