import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// Starts rebuilding one projection beside the live one (what `ledger replay
    /// --projection NAME` does), then shows its progress.
    func startRebuild(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        _ = try form(request, of: viewer)
        let name = request.pathParameters["name"] ?? ""
        do {
            _ = try jobs.startRebuild(projectionNamed: name, by: viewer.state.name, now: settings.now())
        } catch ConsoleJobs.RebuildRefusal.unknownProjection(let known) {
            throw Problem(status: 404, code: "not_found", title: "No such projection",
                          detail: "The projections are \(known.joined(separator: ", ")).")
        } catch ConsoleJobs.RebuildRefusal.needsProjectorRole {
            throw Problem(status: 409, code: "rebuild_unavailable", title: "Rebuilds need the projector's role",
                          detail: "The console reads the projections and may not write them: give it LEDGER_PROJECTOR_DATABASE_URL (a login in ledger_projector), or run `ledger replay --projection \(name)`.")
        } catch ConsoleJobs.RebuildRefusal.running {
            throw Problem(status: 409, code: "rebuild_running", title: "A rebuild is under way",
                          detail: "Another rebuild is under way or waits for a decision: see /projections/rebuild.")
        }
        return Self.redirect("/projections/rebuild")
    }

    /// The rebuild: its progress, then what it changes against the live projection and
    /// the confirmation that swaps it in (with a reason, recorded as `projection.rebuilt`),
    /// then its outcome.
    func rebuildPage(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        guard let r = jobs.currentRebuild else {
            return HTML.page(title: "Rebuild", body: "<p role=\"status\">No rebuild has been started from this console since it started.</p>",
                             signedIn: viewer.frame)
        }
        let who = "started by \(HTML.escape(r.by)) at \(HTML.escape(r.started.iso8601))"
        var body = "<p>Projection <strong>\(HTML.escape(r.projection))</strong>, \(who).</p>"
        var refresh: Int?
        switch r.phase {
        case .building, .comparing:
            let percent = r.head > 0 ? min(100, Int(r.position * 100 / r.head)) : 0
            body += """
                <p role="status">\(r.phase == .building ? "Folding the log" : "Comparing with the live projection"): position \(r.position) of \(r.head).</p>
                <progress max="100" value="\(percent)" aria-label="Events folded">\(percent) %</progress>
                <p>The live projection keeps serving meanwhile; nothing is swapped before you confirm.</p>
                """
            refresh = 1
        case .ready:
            body += differencesHTML(r.differences)
            if viewer.state.role.includes(.operator) {
                body += """
                    <form method="post" action="/projections/rebuild/decide">
                    <input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))"><input type="hidden" name="id" value="\(HTML.escape(r.id))">
                    <input type="hidden" name="key" value="\(HTML.escape("console-rebuild-" + r.id))">
                    <label for="reason">Reason <small>(recorded with your name in <code>projection.rebuilt</code>)</small></label>
                    <input id="reason" name="reason" size="50">
                    <p><button type="submit" name="choice" value="swap">Swap it in</button>
                    <button type="submit" name="choice" value="discard">Discard it</button></p>
                    </form>
                    <p>Swapping folds the events appended since, then switches readers to the rebuilt tables in one transaction.
                    Left undecided, the rebuild is discarded after \(Int(jobs.readyTimeout / 60)) minutes.</p>
                    """
            }
        case .swapping:
            body += "<p role=\"status\">Swapping in (decided by \(HTML.escape(r.decidedBy ?? ""))): folding the last events.</p>"
            refresh = 1
        case .swapped:
            body += "<p role=\"status\"><strong>Swapped in</strong> by \(HTML.escape(r.decidedBy ?? "")).</p>"
            if let position = r.recordedAt {
                body += "<p>Recorded as <a href=\"/events/\(position)\">the event at position \(position)</a>.</p>"
            } else {
                refresh = r.error == nil ? 1 : 2
            }
            body += differencesHTML(r.differences)
        case .discarded:
            body += "<p role=\"status\">Discarded: nothing was swapped.</p>"
        case .failed:
            break
        }
        if let error = r.error {
            body += "<p class=\"error\" role=\"alert\">\(HTML.escape(error))</p>"
        }
        body += "<p><a href=\"/projections\">Back to the projections</a></p>"
        return HTML.page(title: "Rebuild of \(r.projection)", body: body, signedIn: viewer.frame, refresh: refresh)
    }

    /// Swap or discard the rebuild the form names; a reason is required to swap.
    func decideRebuild(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let fields = try form(request, of: viewer)
        let id = fields["id"] ?? ""
        let choice: ConsoleJobs.Decision
        switch fields["choice"] {
        case "swap":
            let reason = (fields["reason"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !reason.isEmpty, reason.utf8.count <= 2_000 else {
                throw Problem(status: 422, code: "act_refused", title: "Refused", detail: "A reason is required to swap (at most 2,000 bytes).")
            }
            guard let key = fields["key"], key == "console-rebuild-" + id else {
                throw Problem(status: 400, code: "invalid_form", title: "Form refused", detail: "The rebuild's key is missing: reload the page.")
            }
            choice = .swap(operatorName: viewer.state.name, reason: reason, key: key)
        case "discard":
            choice = .discard
        default:
            throw Problem(status: 400, code: "invalid_form", title: "Form refused", detail: "choice is swap or discard.")
        }
        // A second send of the same form (a double click) finds the rebuild decided: the
        // page shows what the first did.
        if !jobs.decide(id, choice), jobs.currentRebuild?.id != id {
            throw Problem(status: 409, code: "rebuild_gone", title: "Not this rebuild",
                          detail: "That rebuild is no longer the one waiting for a decision: see /projections/rebuild.")
        }
        return Self.redirect("/projections/rebuild")
    }

    /// What a rebuild changes, per table and per account, as `ledger replay` prints it.
    private func differencesHTML(_ differences: [ConsoleJobs.Differences]) -> String {
        differences.map { d -> String in
            guard let live = d.livePosition else {
                return "<p>No live projection yet: the rebuild creates it at position \(d.position).</p>"
            }
            if d.isUnchanged { return "<p role=\"status\"><strong>Unchanged</strong>: the rebuild equals the live projection at position \(d.position).</p>" }
            let tables = d.tables.filter { !$0.isUnchanged }.map {
                "<tr><td>\(HTML.escape($0.table))</td><td>\($0.added)</td><td>\($0.removed)</td><td>\($0.changed)</td></tr>"
            }.joined()
            let accounts = d.accounts.prefix(500).map {
                "<tr><td>\(HTML.escape($0.account))</td><td>\(HTML.escape($0.figure))</td><td>\(HTML.escape($0.live))</td><td>\(HTML.escape($0.rebuilt))</td></tr>"
            }.joined()
            let behind = live == d.position ? "" : " (the live projection is at \(live): accounts are compared only at the same position)"
            return """
                <p role="status"><strong>The rebuild changes the projection</strong> at position \(d.position)\(behind).</p>
                <table><caption>Rows by table</caption><thead><tr><th scope="col">Table</th><th scope="col">Added</th><th scope="col">Removed</th>
                <th scope="col">Changed</th></tr></thead><tbody>\(tables)</tbody></table>
                \(accounts.isEmpty ? "" : """
                    <table><caption>Accounts whose figures move (live → rebuilt)\(d.accounts.count > 500 ? ", the first 500 of \(d.accounts.count)" : "")</caption>
                    <thead><tr><th scope="col">Account</th><th scope="col">Figure</th><th scope="col">Live</th><th scope="col">Rebuilt</th></tr></thead>
                    <tbody>\(accounts)</tbody></table>
                    """)
                """
        }.joined()
    }
}
