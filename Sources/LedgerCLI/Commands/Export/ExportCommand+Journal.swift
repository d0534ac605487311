import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import Projections

extension ExportCommand {
    static let journalColumns = ["entry_id", "posted_at", "kind", "source", "amount", "project_id", "pool", "month", "hold_id",
                                 "corrects", "corrected_by", "description"]

    /// The account's journal through the same pages as `GET …/journal` (J1: a cursor, so
    /// no entry is skipped or repeated while others are posted), filtered by month.
    static func journal(_ args: Arguments, format: Format, connections: PostgresPool, to output: ExportOutput) throws -> String {
        let account = try account(args)
        let (from, to) = try months(args, fromRequired: false)
        let queries = QueryRunner(connections: connections, clock: SystemClock.now)
        if format == .csv { try output.line(CSV.line(journalColumns)) }
        var after: JournalEntryID?
        var exported = 0
        var position: Int64 = 0
        let bar = ProgressBar(label: "journal")
        while true {
            guard let page = try queries.answer(JournalQuery(account, after: after, limit: 1_000), as: .operator("ledger export")) else {
                throw ExportError.notFound("\(account.kind) \(account.id) does not exist")
            }
            position = page.position
            for entry in page.entries {
                let month = String(entry.postedAt.prefix(7))
                if let from, month < from.description { continue }
                if let to, month > to.description { continue }
                let cells: [String?] = [entry.id.description, entry.postedAt, entry.kind, entry.source, entry.amount.description,
                                        entry.projectID, entry.pool, entry.month, entry.holdID, entry.corrects,
                                        entry.correctedBy.joined(separator: " "), entry.description]
                if format == .csv {
                    try output.line(CSV.line(cells.map { $0 ?? "" }))
                } else {
                    var object = Dictionary(uniqueKeysWithValues: zip(journalColumns, cells.map { $0.map(JSONValue.string) ?? .null }))
                    object["corrected_by"] = .array(entry.correctedBy.map(JSONValue.string))
                    try output.line(JSONValue.object(object).compactText())
                }
                exported += 1
            }
            bar.update(done: Int64(exported), total: Int64(exported))
            guard page.hasMore, page.count > 0 else { break }
            after = page.id(at: page.count - 1)
        }
        bar.finish()
        return "exported \(exported) journal entries of \(account.key) (billing projection at position \(position))"
    }
}
