import EventStore
import HTTP
import Projections

extension Console {
    /// Each projection against the log's head: position, lag, the version its tables were
    /// built with against the code's, and the event it stopped on, if any.
    func projectionsPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let projections = AllProjections.all
        let (head, checkpoints) = try pool.read { conn in
            (try EventStore.headPosition(on: conn), try ProjectionSchema.checkpoints(projections.map(\.schema), on: conn))
        }
        let rows = projections.map { projection -> String in
            guard let c = checkpoints[projection.schema] else {
                return "<tr><td>\(HTML.escape(projection.name))</td><td colspan=\"4\">not created yet: is the projector running?</td></tr>"
            }
            let version = c.version == projection.version ? "\(c.version)" : "\(c.version) (the code is at \(projection.version): a rebuild is due)"
            let failure = c.failedPosition.map {
                "<span class=\"error\">stopped at <a href=\"/events/\($0)\">position \($0)</a>: \(HTML.escape(c.error ?? ""))</span>"
            } ?? "—"
            return "<tr><td>\(HTML.escape(projection.name))</td><td>\(c.position)</td><td>\(head - c.position)</td><td>\(version)</td><td>\(failure)</td></tr>"
        }.joined()
        return HTML.page(title: "Projections", body: """
            <p>The log's head is at position \(head).</p>
            <table><thead><tr><th scope="col">Projection</th><th scope="col">Position</th><th scope="col">Lag (events)</th>
            <th scope="col">Version</th><th scope="col">Stopped on</th></tr></thead><tbody>\(rows)</tbody></table>
            <p>A projection that stopped is set aside with <code>ledger admin event set-aside</code>, and rebuilt with
            <code>ledger replay</code>, which shows what it changes before it swaps (docs/operations.md).</p>
            """, signedIn: viewer.frame)
    }
}
