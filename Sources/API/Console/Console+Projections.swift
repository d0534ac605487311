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
            \(driftHTML(overview.drift))
            """, signedIn: viewer.frame)
    }

    /// The drift check's last word per projection (docs/operations.md, "Drift"): the
    /// accounts whose live rows differ from the log's fold, each figure with both values.
    func driftHTML(_ drift: DriftStatus?) -> String {
        let intro = """
            <p>The projector folds a sample of accounts again from the log every few minutes, with the projection's own fold, and
            compares them with the live rows at the projection's position: the most recently changed, some at random, and every
            account found drifted before, until it is found clean. A difference means a row was changed outside the fold (by hand,
            or a bug): find the cause, then rebuild the projection.</p>
            """
        guard let drift else {
            return "<h2>Drift check</h2>" + intro + "<p>No drift check has run yet: is the projector running (LEDGER_DRIFT_CHECK_EVERY)?</p>"
        }
        let sections = drift.projections.map { p -> String in
            var out = "<h3>\(HTML.escape(p.projection))</h3>"
            if let check = p.lastCompleted {
                let when = "The check of \(HTML.escape(check.started.iso8601)) folded \(check.accounts.count) account\(check.accounts.count == 1 ? "" : "s") again from the log up to position \(check.position ?? 0) (\(check.events) events)"
                if check.drifted.isEmpty {
                    out += "<p role=\"status\">\(when): <strong>every one agrees with the live rows</strong>.</p>"
                } else {
                    let rows = check.findings.map { f in
                        let account = HTML.escape(f.account)
                        let link = "<a href=\"/journal?account=\(HTML.query(f.account))\">\(account)</a> (<a href=\"/usage?account=\(HTML.query(f.account))\">balance</a>)"
                        return "<tr><td>\(link)</td><td>\(HTML.escape(f.figure))</td><td>\(HTML.escape(f.live))</td><td>\(HTML.escape(f.refolded))</td></tr>"
                    }.joined()
                    out += """
                        <p role="alert" class="error">\(when): <strong>\(check.drifted.count) account\(check.drifted.count == 1 ? " differs" : "s differ") from the log</strong>:
                        \(check.drifted.map { HTML.escape($0) }.joined(separator: ", ")).</p>
                        <table><caption>What differs (live row → folded again from the log)</caption>
                        <thead><tr><th scope="col">Account</th><th scope="col">Figure</th><th scope="col">Live</th><th scope="col">Folded again from the log</th></tr></thead>
                        <tbody>\(rows)</tbody></table>
                        <p>Rebuild it with <code>ledger replay --projection \(HTML.escape(p.projection))</code> (or above) once the cause is known.</p>
                        """
                }
                if !check.skipped.isEmpty {
                    out += "<p>Not compared: " + check.skipped.map { HTML.escape($0) }.joined(separator: "; ") + ".</p>"
                }
            } else {
                out += "<p>No drift check has completed yet.</p>"
            }
            if let code = p.last.failureCode, p.last.id != p.lastCompleted?.id {
                out += "<p>The last check (\(HTML.escape(p.last.started.iso8601))) did not complete: \(HTML.escape(code)), \(HTML.escape(p.last.failure ?? "")).</p>"
            }
            return out
        }.joined()
        return "<h2>Drift check</h2>" + intro + sections
    }
}
