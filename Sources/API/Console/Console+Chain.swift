import Crypto
import EventStore
import HTTP

extension Console {
    /// The hash chain: its head, a verification on request, and the plain-SQL recipe an
    /// auditor can run without our code (docs/audit.md).
    func chainPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let (head, firstLive) = try pool.read { conn -> (RecordedEvent?, Int64) in
            let position = try EventStore.headPosition(on: conn)
            return (try EventStore.event(at: position, on: conn), try EventStore.firstLivePosition(on: conn))
        }
        var result = ""
        if request.query("verify") == "1" {
            let report = try pool.read { try ChainVerifier().verify(on: $0) }
            let warnings = report.warnings.map { "<li>\(HTML.escape($0))</li>" }.joined()
            if let failure = report.failure {
                result = "<p class=\"error\" role=\"alert\">INVALID at position \(failure.position): \(HTML.escape(failure.reason)) (\(report.verified) events verified before it)</p>"
            } else {
                result = "<p role=\"status\"><strong>Valid</strong>: \(report.verified) events, head \(report.headPosition), hash <code>\(Hex.encode(report.headHash))</code>.</p>"
            }
            if !warnings.isEmpty { result += "<ul>\(warnings)</ul>" }
        }
        let archived = firstLive > 1 ? "<p>Positions 1 to \(firstLive - 1) are archived (<code>ledger verify --archive</code> checks their files).</p>" : ""
        return HTML.page(title: "Hash chain", body: """
            <table><tr><th scope="row">Head position</th><td>\(head?.position ?? 0)</td></tr>
            <tr><th scope="row">Head hash</th><td><code>\(head.map { Hex.encode($0.hash) } ?? "none yet")</code></td></tr></table>
            \(archived)
            <form method="get" action="/chain"><input type="hidden" name="verify" value="1"><p><button type="submit">Verify the whole chain now</button></p></form>
            \(result)
            <h2>Check it yourself</h2>
            <p>Write the head down outside the database; later, <code>ledger verify --expect POSITION:HASH</code> proves today's
            log still passes through it. The query below recomputes every hash with PostgreSQL's own <code>sha256</code>
            and returns the first broken position, or nothing (docs/audit.md explains each part).</p>
            <pre>\(HTML.escape(ChainVerifier.auditorSQL))</pre>
            """, signedIn: viewer.frame)
    }
}
