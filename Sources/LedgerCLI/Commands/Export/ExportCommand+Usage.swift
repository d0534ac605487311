import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

extension ExportCommand {
    static let usageColumns = ["month", "status", "final", "project_id", "api_requests", "stream_events", "webhook_deliveries",
                               "units_counted", "units_free_used", "units_billed", "units_amount", "storage_peak_bytes",
                               "storage_billed_bytes", "storage_amount", "bytes_served", "bytes_received", "amount"]

    /// Month by month, the usage endpoint's answer: in JSON lines as it is, in CSV a total
    /// row and, for a payer, a row per project.
    static func usage(_ args: Arguments, format: Format, connections: PostgresPool, to output: ExportOutput) throws -> String {
        let account = try account(args)
        let (first, last) = try months(args, fromRequired: true)
        guard let first else { throw UsageError("--from YYYY-MM is required") }
        var months = [first]
        while let next = months.last?.next, next <= (last ?? first) {
            months.append(next)
            if months.count > 1_200 { throw UsageError("--from to --to spans more than 100 years") }
        }
        if format == .csv { try output.line(CSV.line(usageColumns)) }
        let queries = QueryRunner(connections: connections, clock: SystemClock.now)
        for month in months {
            guard let view = try queries.answer(UsageQuery(account, month: month), as: .operator("ledger export")) else {
                throw ExportError.notFound("\(account.kind) \(account.id) does not exist")
            }
            let body = try JSONValueEncoder().encode(view)
            if format == .jsonl {
                try output.line(body.compactText())
                continue
            }
            try output.line(CSV.line(usageRow(body, month: body, project: "")))
            for line in body["projects"]?.arrayValue ?? [] {
                try output.line(CSV.line(usageRow(line, month: body, project: line["project_id"]?.stringValue ?? "")))
            }
        }
        return "exported \(months.count) months of usage of \(account.key) (\(months.first!) to \(months.last!))"
    }

    /// One CSV row of `figures` (a month's total or a project's line of it).
    private static func usageRow(_ figures: JSONValue, month: JSONValue, project: String) -> [String] {
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let s)?, .decimal(let s)?: return s
            case .integer(let n)?: return String(n)
            case .bool(let b)?: return b ? "true" : "false"
            default: return ""
            }
        }
        let units = figures["units"], storage = figures["storage"]
        return [text(month["month"]), text(month["status"]), text(month["final"]), project,
                text(units?["api_requests"]), text(units?["stream_events"]), text(units?["webhook_deliveries"]),
                text(units?["counted"]), text(units?["free_used"]), text(units?["billed"]), text(units?["amount"]),
                text(storage?["peak_bytes"]), text(storage?["billed_bytes"]), text(storage?["amount"]),
                text(figures["bytes_served"]), text(figures["bytes_received"]), text(figures["amount"])]
    }
}
