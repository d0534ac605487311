import Foundation
import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// Every correction posted (J3), across accounts or one, by operator and time, each
    /// linked to its own event and to the entry it corrects; and the same as CSV.
    func correctionsPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let (corrections, query) = try Self.correctionsQuery(request)
        let rows = try self.corrections(corrections, viewer)
        let body = rows.map { row -> String in
            let original = JournalEntryID(row.corrects).map { "<a href=\"/events/\($0.position)\">\(HTML.escape(row.corrects))</a>" }
                ?? HTML.escape(row.corrects)
            return """
                <tr><td><a href="/events/\(row.position)">\(HTML.escape(row.correctionID))</a></td><td>\(original)</td>
                <td>\(HTML.escape(row.account))</td><td>\(HTML.escape(row.amount.description))</td><td>\(HTML.escape(row.actor))</td>
                <td>\(HTML.escape(row.at))</td><td>\(HTML.escape(row.reason))</td></tr>
                """
        }.joined()
        func field(_ name: String, _ label: String, _ hint: String) -> String {
            """
            <label for="\(name)">\(label) <small>(\(hint))</small></label>
            <input id="\(name)" name="\(name)" value="\(HTML.escape(request.query(name) ?? ""))">
            """
        }
        let table = rows.isEmpty ? "<p role=\"status\">No correction matches.</p>" : """
            <table><caption>\(rows.count) correction\(rows.count == 1 ? "" : "s"), oldest first</caption><thead><tr>
            <th scope="col">Correction</th><th scope="col">Corrects</th><th scope="col">Account</th><th scope="col">Amount</th>
            <th scope="col">Operator</th><th scope="col">At</th><th scope="col">Reason</th></tr></thead><tbody>\(body)</tbody></table>
            """
        return HTML.page(title: "Corrections", body: """
            <form method="get" action="/corrections">
            \(field("account", "Account", "payer:ID or project:ID"))\(field("actor", "Operator", "name"))
            \(field("since", "Since", "YYYY-MM-DD or an RFC 3339 time"))\(field("until", "Until", "before; the same forms"))
            <p><button type="submit">Filter</button></p></form>
            <p><a href="/corrections.csv\(query)" download>Export these as CSV</a></p>
            \(table)
            """, signedIn: viewer.frame)
    }

    func correctionsCSV(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let (corrections, _) = try Self.correctionsQuery(request)
        let rows = try self.corrections(corrections, viewer)
        let lines = rows.csvLines
        return HTTPResponse(status: 200, headers: HTTPHeaders([
            ("Content-Type", "text/csv; charset=utf-8"), ("Content-Disposition", "attachment; filename=\"corrections.csv\""),
            ("Cache-Control", "private, no-store"), ("X-Content-Type-Options", "nosniff"),
        ]), body: Array((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// The corrections `query` selects; none for an account that does not exist.
    private func corrections(_ query: CorrectionsQuery, _ viewer: Viewer) throws -> CorrectionsQuery.Answer {
        try queries.answer(query, as: viewer.reader) ?? []
    }

    /// The corrections the request's query string asks, and the query string again for the
    /// export link.
    static func correctionsQuery(_ request: HTTPRequest) throws -> (CorrectionsQuery, String) {
        func value(_ name: String) -> String? {
            guard let text = request.query(name)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            return text
        }
        func instant(_ name: String) throws -> Timestamp? {
            guard let text = value(name) else { return nil }
            guard let time = Timestamp(dayOrInstant: text) else {
                throw Problem(status: 400, code: "invalid_time", title: "Not a time", detail: "\(name) is YYYY-MM-DD or an RFC 3339 time.")
            }
            return time
        }
        let account = try value("account").map { text -> Pool in
            guard let pool = Pool(text) else {
                throw Problem(status: 400, code: "invalid_account", title: "Not an account", detail: "account is payer:ID or project:ID.")
            }
            return pool
        }
        let corrections = CorrectionsQuery(account: account, actor: value("actor").map { String($0.prefix(200)) },
                                           since: try instant("since"), until: try instant("until"))
        let pairs = ["account", "actor", "since", "until"].compactMap { name in value(name).map { "\(name)=\(HTML.query($0))" } }
        return (corrections, pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&amp;"))
    }
}
