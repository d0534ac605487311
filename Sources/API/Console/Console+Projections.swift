import HTTP
import LedgerServices

extension Console {
    /// Each projection against the log's head: position, lag, the version its tables were
    /// built with against the code's, and the event it stopped on, if any.
    func projectionsPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        guard let overview = try queries.answer(jobs.overview, as: viewer.reader) else {
            throw Problem(status: 404, code: "not_found", title: "Not found", detail: "There is no projection status to show.")
        }
        let head = overview.head
        let mayAct = viewer.state.role.includes(.operator)
        func rebuild(_ projection: ProjectionsOverviewQuery.Item) -> String {
            guard mayAct else { return "" }
            guard projection.swappable else {
                // Without the projector's login (production refuses it to `ledger serve`, and
                // `ledger dev` does not give it), say so rather than fail at the swap.
                let why = settings.projectorConninfo == nil
                    ? "this console has no LEDGER_PROJECTOR_DATABASE_URL: the projector's login stays out of the internet-facing process"
                    : "its LEDGER_PROJECTOR_DATABASE_URL is not the projection's owner"
                return "<td>run <code>ledger replay --projection \(HTML.escape(projection.name))</code> as the projector (\(why); the console itself only reads the projections)</td>"
            }
            return """
                <td><form method="post" action="/projections/\(HTML.query(projection.name))/rebuild">
                <input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))">
                <button type="submit" aria-label="Rebuild \(HTML.escape(projection.name)) and compare">Rebuild and compare</button></form></td>
                """
        }
        let rows = overview.projections.map { projection -> String in
            guard let c = projection.progress else {
                return "<tr><td>\(HTML.escape(projection.name))</td><td colspan=\"\(mayAct ? 5 : 4)\">not created yet: is the projector running?</td></tr>"
            }
            let version = c.version == projection.codeVersion ? "\(c.version)" : "\(c.version) (the code is at \(projection.codeVersion): a rebuild is due)"
            let failure = c.failedPosition.map {
                "<span class=\"error\">stopped at <a href=\"/events/\($0)\">position \($0)</a>: \(HTML.escape(c.error ?? ""))</span>"
            } ?? "—"
            return "<tr><td>\(HTML.escape(projection.name))</td><td>\(c.position)</td><td>\(head - c.position)</td><td>\(version)</td><td>\(failure)</td>\(rebuild(projection))</tr>"
        }.joined()
        return HTML.page(title: "Projections", body: """
            <p>The log's head is at position \(head).</p>
            <table><thead><tr><th scope="col">Projection</th><th scope="col">Position</th><th scope="col">Lag (events)</th>
            <th scope="col">Version</th><th scope="col">Stopped on</th>\(mayAct ? "<th scope=\"col\">Rebuild</th>" : "")</tr></thead><tbody>\(rows)</tbody></table>
            \(jobs.currentRebuild.map { "<p><a href=\"/projections/rebuild\">The rebuild of \(HTML.escape($0.projection))</a> (\($0.phase.rawValue))</p>" } ?? "")
            <p>A rebuild folds the whole log into a copy beside the live projection, shows what it changes (as
            <code>ledger replay</code> does), and swaps it in only when an operator confirms, with a reason recorded as
            <code>projection.rebuilt</code>. A projection that stopped is set aside with <code>ledger admin event set-aside</code>
            (docs/operations.md).</p>
            """, signedIn: viewer.frame)
    }
}
