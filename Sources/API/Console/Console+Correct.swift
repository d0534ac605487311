import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Projections

extension Console {
    /// The correction act (J3), as `ledger admin correct` does it: the same decider, the
    /// same event, the operator's name and reason in its metadata. Three steps: the form,
    /// a confirmation that shows the event to be appended, and the append, under an
    /// idempotency key made at confirmation (sending the form twice appends once).
    func correctForm(_ request: HTTPRequest, _ viewer: Viewer, error: String? = nil, fields: [String: String] = [:],
                     status: Int = 200) throws -> HTTPResponse {
        let entry = fields["entry"] ?? request.query("entry") ?? ""
        let alert = error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return HTML.page(title: "Correct a journal entry", body: """
            \(alert)
            <form method="post" action="/acts/correct/confirm">
            <input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))">
            <label for="entry">Journal entry <small>(je_POSITION_INDEX)</small></label>
            <input id="entry" name="entry" value="\(HTML.escape(entry))" required>
            <label for="amount">Amount in millicredits <small>(negative reverses part of a credit)</small></label>
            <input id="amount" name="amount" value="\(HTML.escape(fields["amount"] ?? ""))" required inputmode="numeric">
            <label for="reason">Reason <small>(recorded with your name)</small></label>
            <input id="reason" name="reason" value="\(HTML.escape(fields["reason"] ?? ""))" required size="60">
            <p><button type="submit">Review the correction</button></p>
            </form>
            """, signedIn: viewer.frame, status: status)
    }

    func confirmCorrection(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let fields = try form(request, of: viewer)
        let decided: Decision
        do { decided = try decideCorrection(fields, viewer) } catch let problem as Problem where problem.status == 422 {
            return try correctForm(request, viewer, error: problem.detail, fields: fields, status: 422)
        }
        let key = "console-" + Base64URL.encode(SecureRandom.bytes(12))
        let events = decided.events.map { event in
            let corrects = event.correctsPosition.map { "<a href=\"/events/\($0)\">position \($0)</a>" } ?? "—"
            return "<tr><td><code>\(HTML.escape(event.type))</code></td><td>\(HTML.escape(event.stream))</td><td>\(corrects)</td><td><pre>\(HTML.escape(event.data.compactText()))</pre></td></tr>"
        }.joined()
        let hidden = ["entry", "amount", "reason"].map {
            "<input type=\"hidden\" name=\"\($0)\" value=\"\(HTML.escape(fields[$0] ?? ""))\">"
        }.joined()
        return HTML.page(title: "Confirm the correction", body: """
            <p>This appends the event below to the log, as <strong>\(HTML.escape(viewer.state.name))</strong>, with the reason
            “\(HTML.escape(fields["reason"] ?? ""))”. The log is immutable: a mistake is undone by another correction.</p>
            <table><thead><tr><th scope="col">Type</th><th scope="col">Stream</th><th scope="col">Corrects</th><th scope="col">Data</th></tr></thead><tbody>\(events)</tbody></table>
            <form method="post" action="/acts/correct">
            <input type="hidden" name="csrf" value="\(HTML.escape(viewer.csrf))"><input type="hidden" name="key" value="\(HTML.escape(key))">\(hidden)
            <p><button type="submit">Append the correction</button> <a href="/acts/correct?entry=\(HTML.query(fields["entry"] ?? ""))">Change it</a></p>
            </form>
            """, signedIn: viewer.frame)
    }

    func appendCorrection(_ request: HTTPRequest, _ viewer: Viewer) throws -> HTTPResponse {
        let fields = try form(request, of: viewer)
        guard let key = fields["key"], key.hasPrefix("console-"), key.utf8.count <= 64 else {
            throw Problem(status: 400, code: "invalid_form", title: "Form refused", detail: "The confirmation's key is missing: review the correction again.")
        }
        // Sent again (a double click, a retry after a lost answer): what the first one recorded.
        if let earlier = try store.events(appendedUnder: key).first {
            return Self.redirect("/events/\(earlier.position)")
        }
        let decision: Decision
        do { decision = try decideCorrection(fields, viewer) } catch let problem as Problem where problem.status == 422 {
            return try correctForm(request, viewer, error: problem.detail, fields: fields, status: 422)
        }
        let metadata = EventMetadata(actor: Actor(.operator, viewer.state.name), requestID: "console-" + Hex.encode(SecureRandom.bytes(8)),
                                     reason: fields["reason"])
        var append = AppendRequest(decision, metadata: metadata)
        append.idempotencyKey = decision.idempotencyKey ?? key
        let result: AppendResult
        do { result = try store.append(append) } catch {
            switch error.code {
            case .wrongExpectedVersion:
                return try correctForm(request, viewer, error: "The account changed while you confirmed (\(error.message)): nothing was appended; review it again.", fields: fields, status: 409)
            case .outcomeUnknown:
                throw Problem(status: 503, code: "outcome_unknown", title: "Outcome unknown",
                              detail: "The database failed while committing; send the confirmation again: its key records it at most once.", retryAfter: 1)
            default:
                throw Problem(status: 503, code: "store_unavailable", title: "Log unavailable",
                              detail: "The log could not be written, nothing was appended (\(error.message)); send the confirmation again.", retryAfter: 1)
            }
        }
        let position = result.events.first?.position ?? 0
        return Self.redirect("/events/\(position)")
    }

    /// The decision, on the billing projection once it holds every event of the entry's
    /// pool stream (its version is what the append expects): never a wait on a request
    /// thread; a projection behind is a 503 to retry.
    private func decideCorrection(_ fields: [String: String], _ viewer: Viewer) throws -> Decision {
        guard viewer.state.role.includes(.operator) else {
            throw Problem(status: 403, code: "forbidden", title: "Not allowed", detail: "Acts need the role operator.")
        }
        func refuse(_ detail: String) -> Problem { Problem(status: 422, code: "invalid_correction", title: "Correction refused", detail: detail) }
        guard let entry = JournalEntryID(fields["entry"] ?? "") else { throw refuse("The journal entry is je_POSITION_INDEX, as the journal shows it.") }
        guard let amount = Millicredits(canonical: fields["amount"] ?? ""), amount.value != 0 else {
            throw refuse("The amount is a non-zero integer of millicredits, such as -500.")
        }
        let reason = (fields["reason"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty, reason.utf8.count <= 2_000 else { throw refuse("A reason is required (at most 2,000 bytes).") }
        let billing = BillingReadModel(pool: pool)
        var version: Int64?
        if let pool = try billing.entry(entry)?.pool {
            let head = try self.pool.read { try EventStore.streamHead(pool.ownerStream, on: $0) }
            version = head?.version
            let checkpoint = try billing.checkpoint()?.position ?? 0
            if let head, checkpoint < head.position {
                throw Problem(status: 503, code: "projection_behind", title: "Catching up",
                              detail: "The billing projection has not applied the account's last event yet; send the form again in a moment.",
                              retryAfter: 1)
            }
        }
        let original = try billing.entry(entry)
        do {
            return try MoneyDecider.correct(original, id: entry, amount: amount, reason: reason, streamVersion: version)
        } catch {
            throw refuse(error.message)
        }
    }
}
