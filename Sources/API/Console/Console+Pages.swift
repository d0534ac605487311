import Foundation
import HTTP
import LedgerDomain
import LedgerServices

extension Console {
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
