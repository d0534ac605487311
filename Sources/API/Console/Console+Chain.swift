import Crypto
import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// The hash chain: its head, a verification on request, and the plain-SQL recipe an
    /// auditor can run without our code (docs/audit.md).
    func chainPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        guard let chain = try queries.answer(ChainHeadQuery(), as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "Not found", detail: "There is no hash chain to show.")
        }
        let (head, firstLive) = (chain.head, chain.firstLive)
        let (result, running) = verificationSection()
        let archived = firstLive > 1 ? "<p>Positions 1 to \(firstLive - 1) are archived (<code>ledger verify --archive</code> checks their files).</p>" : ""
        return HTML.page(title: "Hash chain", body: """
            <table><tr><th scope="row">Head position</th><td>\(head?.position ?? 0)</td></tr>
            <tr><th scope="row">Head hash</th><td><code>\(head.map { Hex.encode($0.hash) } ?? "none yet")</code></td></tr></table>
            \(archived)
            <form method="post" action="/chain/verify"><input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))">
            <p><button type="submit"\(running ? " disabled" : "")>Verify the whole chain now</button></p></form>
            \(result)
            <h2>Check it yourself</h2>
            <p>Write the head down outside the database; later, <code>ledger verify --expect POSITION:HASH</code> proves today's
            log still passes through it. The query below recomputes every hash with PostgreSQL's own <code>sha256</code>
            and returns the first broken position, or nothing (docs/audit.md explains each part).</p>
            <pre>\(HTML.escape(ChainHeadQuery.auditorSQL))</pre>
            """, signedIn: viewer.frame, refresh: running ? 1 : nil)
    }

    /// Starts a verification of the whole chain (one at a time), then back to the chain
    /// page, which shows how far it got.
    func startVerification(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        _ = try form(request, of: viewer)
        _ = jobs.startVerification(by: viewer.state.name, now: settings.now())
        return Self.redirect("/chain")
    }

    /// The last verification: its progress while it runs, its outcome once it has ended.
    private func verificationSection() -> (html: String, running: Bool) {
        guard let v = jobs.currentVerification else { return ("", false) }
        let who = "started by \(HTML.escape(v.by)) at \(HTML.escape(v.started.iso8601))"
        guard v.finished != nil else {
            let percent = v.head > 0 ? min(100, Int(v.checked * 100 / v.head)) : 0
            return ("""
                <p role="status">Verifying (\(who)): \(v.checked) of \(v.head) events checked.</p>
                <progress max="100" value="\(percent)" aria-label="Events checked">\(percent) %</progress>
                """, true)
        }
        guard let report = v.report else {
            return ("<p class=\"error\" role=\"alert\">The verification \(who) could not run: \(HTML.escape(v.error ?? ""))</p>", false)
        }
        var html: String
        if let failure = report.failure {
            html = "<p class=\"error\" role=\"alert\">INVALID at position \(failure.position): \(HTML.escape(failure.reason)) (\(report.verified) events verified before it; \(who))</p>"
        } else {
            html = "<p role=\"status\"><strong>Valid</strong>: \(report.verified) events, head \(report.headPosition), hash <code>\(Hex.encode(report.headHash))</code> (\(who)).</p>"
        }
        let warnings = report.warnings.map { "<li>\(HTML.escape($0))</li>" }.joined()
        if !warnings.isEmpty { html += "<ul>\(warnings)</ul>" }
        return (html, false)
    }
}
