import Crypto
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

extension Console {
    /// The act's form, filled from the query or from a refused send.
    func actForm(_ act: ConsoleAct, _ request: HTTPRequest, _ viewer: Viewer, error: String? = nil,
                 fields: [String: String] = [:], status: Int = 200) throws -> HTTPResponse {
        let alert = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        let inputs = (act.fields + [ConsoleAct.Field(name: "reason", label: "Reason", hint: "recorded with your name")]).map { field in
            let value = fields[field.name] ?? request.query(field.name) ?? ""
            return """
                <label for="\(field.name)">\(HTML.escape(field.label)) <small>(\(HTML.escape(field.hint)))</small></label>
                <input id="\(field.name)" name="\(field.name)" value="\(HTML.escape(value))" required size="50">
                """
        }.joined()
        return HTML.page(title: act.title, body: """
            \(alert)
            <form method="post" action="/acts/\(act.name)/confirm">
            <input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))">
            \(inputs)
            <p><button type="submit">Review</button></p>
            </form>
            """, signedIn: viewer.frame, status: status)
    }

    /// What the act would append, shown before anything is: nothing is written here.
    func confirmAct(_ act: ConsoleAct, _ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let fields = try form(request, of: viewer)
        let decided: Decision
        switch try prepareAct(act, fields) {
        case .decided(let decision): decided = decision
        case .stopped(let outcome): return try render(outcome, act, request, viewer, fields)
        }
        let key = "console-" + Base64URL.encode(SecureRandom.bytes(12))
        let events = decided.events.map { event -> String in
            let corrects = event.correctsPosition.map { "<a href=\"/events/\($0)\">position \($0)</a>" } ?? "—"
            return "<tr><td><code>\(HTML.escape(event.type))</code></td><td>\(HTML.escape(event.stream))</td><td>\(corrects)</td><td><pre>\(HTML.escape(event.data.compactText()))</pre></td></tr>"
        }.joined()
        let hidden = (act.fields.map(\.name) + ["reason"]).map {
            "<input type=\"hidden\" name=\"\($0)\" value=\"\(HTML.escape(fields[$0] ?? ""))\">"
        }.joined()
        let back = act.fields.map(\.name).map { "\($0)=\(HTML.query(fields[$0] ?? ""))" }.joined(separator: "&amp;")
        return HTML.page(title: "Confirm: \(act.title.lowercased())", body: """
            <p>This appends the event\(decided.events.count == 1 ? "" : "s") below to the log, as <strong>\(HTML.escape(viewer.state.name))</strong>, with the reason
            “\(HTML.escape(fields["reason"] ?? ""))”. The log is immutable: a mistake is undone by another act.</p>
            <table><thead><tr><th scope="col">Type</th><th scope="col">Stream</th><th scope="col">Corrects</th><th scope="col">Data</th></tr></thead><tbody>\(events)</tbody></table>
            <form method="post" action="/acts/\(act.name)">
            <input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))"><input type="hidden" name="key" value="\(HTML.escape(key))">\(hidden)
            <p><button type="submit">Append</button> <a href="/acts/\(act.name)?\(back)">Change it</a></p>
            </form>
            """, signedIn: viewer.frame)
    }

    /// Appends under the key the confirmation made: a second send (a double click, a retry
    /// after a lost answer) shows what the first recorded, and appends nothing. The append
    /// holds no thread (`AppendDeferral.perform`, as the API's).
    func appendAct(_ act: ConsoleAct, _ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let fields = try form(request, of: viewer)
        guard let key = fields["key"], key.hasPrefix("console-"), key.utf8.count <= 64 else {
            throw Problem(status: 400, code: "invalid_form", title: "Form refused", detail: "The confirmation's key is missing: review the act again.")
        }
        if let earlier = try runner.firstPosition(appendedUnder: key) {
            return Self.redirect("/events/\(earlier)")
        }
        let parsed: any LedgerAct
        do { parsed = try parseAct(act, fields) } catch let problem as Problem where problem.status == 422 {
            return try actForm(act, request, viewer, error: problem.detail, fields: fields, status: 422)
        }
        let metadata = EventMetadata(actor: Actor(.operator, viewer.state.name), requestID: "console-" + Hex.encode(SecureRandom.bytes(8)),
                                     reason: fields["reason"])
        return try AppendDeferral.perform(parsed, runner: runner, metadata: metadata, key: key) { [self] outcome, _ in
            try render(outcome, act, request, viewer, fields)
        }
    }

    /// The one reading of an act's outcome for the console: the event appended, a refusal
    /// or a lost race shown on the act's form again, anything else its problem.
    private func render(_ outcome: ActOutcome, _ act: ConsoleAct, _ request: HTTPRequest, _ viewer: Viewer,
                        _ fields: [String: String]) throws -> HTTPResponse {
        switch outcome {
        case .appended(let result):
            return Self.redirect("/events/\(result.events.first?.position ?? 0)")
        case .alreadyRecorded(let recorded):
            if let position = recorded.position { return Self.redirect("/events/\(position)") }
            return try actForm(act, request, viewer, error: "Nothing was appended: \(recorded.detail).", fields: fields, status: 200)
        case .refused(let refusal):
            let detail = refusal.errors.isEmpty ? refusal.message : refusal.message + ": " + refusal.errors.joined(separator: "; ")
            return try actForm(act, request, viewer, error: detail, fields: fields, status: 422)
        case .conflict(let conflict) where conflict.kind != .keyReused && conflict.kind != .decideAgain:
            return try actForm(act, request, viewer,
                               error: "The account changed while you confirmed (\(conflict.detail)): nothing was appended; review it again.",
                               fields: fields, status: 409)
        default:
            throw outcome.problem ?? Problem(status: 500, code: "internal", detail: "an act's outcome has no problem")
        }
    }

    /// The reason, then the act's own fields.
    private func parseAct(_ act: ConsoleAct, _ fields: [String: String]) throws -> any LedgerAct {
        let reason = (fields["reason"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty, reason.utf8.count <= 2_000 else { throw Self.refusal("A reason is required (at most 2,000 bytes).") }
        return try act.parse(fields, reason)
    }

    /// The act parsed and decided on the state now; a field that does not parse stops it
    /// as a refusal.
    private func prepareAct(_ act: ConsoleAct, _ fields: [String: String]) throws -> ActRunner.Prepared {
        do {
            return try runner.prepare(try parseAct(act, fields))
        } catch let problem as Problem where problem.status == 422 {
            return .stopped(.refused(Refusal(.outOfRange, problem.detail)))
        }
    }

    static func refusal(_ detail: String) -> Problem { Problem(status: 422, code: "act_refused", title: "Refused", detail: detail) }
}
