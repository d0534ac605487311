import HTTP
import LedgerDomain
import LedgerServices

extension Console {
    /// An organization's refund requests (`CONSUMPTION_REQUEST`) and how the ledger answered
    /// each (docs/appstore.md, "Refund requests"), for its page.
    func refundRequestsSection(org: String, _ viewer: Viewer) throws -> String {
        let requests = try queries.answer(AppStoreConsumptionRequestsQuery(org: org), as: viewer.reader) ?? []
        guard !requests.isEmpty else { return "" }
        let rows = requests.map { r -> String in
            let answer = r.outcome.map { "\($0.rawValue) (\(r.reason ?? ""))" } ?? "not answered yet"
            let sent = r.information.map { i in
                "accountTenure \(i.accountTenure), userStatus \(i.userStatus), sampleContentProvided \(i.sampleContentProvided), refundPreference \(i.refundPreference)"
            } ?? "—"
            return """
                <tr><td>\(HTML.escape(r.request.originalTransactionID))</td><td>\(HTML.escape(r.request.transactionID))</td>
                <td>\(HTML.escape(r.request.signedDate.iso8601))</td><td>\(HTML.escape(r.request.respondBy.iso8601))</td>
                <td>\(HTML.escape(answer))</td><td>\(HTML.escape(r.answeredAt?.iso8601 ?? "—"))</td><td>\(HTML.escape(sent))</td></tr>
                """
        }.joined()
        return """
            <h2>Refund requests</h2>
            <table><thead><tr><th scope="col">Subscription</th><th scope="col">Transaction</th><th scope="col">Apple asked</th>
            <th scope="col">Respond by</th><th scope="col">Answer</th><th scope="col">Answered</th><th scope="col">Sent</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
