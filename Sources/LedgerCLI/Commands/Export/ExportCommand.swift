import Foundation
import LedgerDomain
import LedgerServices
import Postgres
import Projections

/// `ledger export journal|usage|events`: what a billing team hands to a spreadsheet, a
/// warehouse or an auditor, as CSV or JSON lines.
public enum ExportCommand: LedgerCommand {
    public static let name = "export"
    public static let summary = "Export an account's journal or monthly usage, or a segment of the event log, as CSV or JSON lines."
    public static let usage = """
        usage: ledger export journal (--project ID | --payer ID) [--from YYYY-MM] [--to YYYY-MM] [options]
               ledger export usage (--project ID | --payer ID) --from YYYY-MM [--to YYYY-MM] [options]
               ledger export events [--after POSITION] [--through POSITION] [options]

        journal  every posted entry of the account (J1-J4), oldest first, with the ids of
                 the corrections of each; --from/--to select the months of posting (UTC).
        usage    the account's usage for each month from --from to --to (default: --from),
                 as GET /v1/…/usage?month= answers it (U1-U7); a payer's months have a row
                 per project besides the total row (project_id empty).
        events   the log's events after --after (default 0) through --through (default the
                 head), with every column the hash chain covers and both hashes: the first
                 event's prev_hash is the hash of position --after, so the segment verifies
                 on its own and against the log (docs/audit.md).

          --format csv|jsonl   CSV with a header line (default), or one JSON object a line
          --output FILE        write to FILE instead of standard output

        A progress bar is drawn on stderr when it is a terminal; a summary line is printed
        on stderr at the end. Exit status: 0; 1 no such account; 2 usage error.
        Uses DATABASE_URL.
        """

    enum Format: String { case csv, jsonl }

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let what = arguments.first, ["journal", "usage", "events"].contains(what) else {
            throw UsageError("ledger export needs what to export: journal, usage or events")
        }
        let args = try Arguments(Array(arguments.dropFirst()),
                                 valued: ["project", "payer", "from", "to", "after", "through", "format", "output"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument \(args.positionals[0])") }
        guard let format = Format(rawValue: args.value("format") ?? "csv") else {
            throw UsageError("--format takes csv or jsonl")
        }
        let output = try ExportOutput(path: args.value("output"))
        let connections = try environment.databasePool(environment.databaseURL(), maximumConnections: 1)
        let summary: String
        switch what {
        case "journal": summary = try journal(args, format: format, connections: connections, to: output)
        case "usage": summary = try usage(args, format: format, connections: connections, to: output)
        default: summary = try events(args, format: format, connections: connections, to: output)
        }
        try output.finish()
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        return 0
    }

    /// `--project ID` or `--payer ID`, exactly one.
    static func account(_ args: Arguments) throws -> BillingAccount {
        let given = ["project", "payer"].filter { args.value($0) != nil }
        guard given.count == 1, let id = args.value(given[0]), !id.isEmpty else {
            throw UsageError("give exactly one of --project ID, --payer ID")
        }
        return given[0] == "project" ? .project(id) : .payer(id)
    }

    /// `--from` and `--to` as UTC months, `--to` defaulting to `--from` or to nothing.
    static func months(_ args: Arguments, fromRequired: Bool) throws -> (from: UTCMonth?, to: UTCMonth?) {
        func month(_ name: String) throws -> UTCMonth? {
            guard let text = args.value(name) else { return nil }
            guard let m = UTCMonth(text) else { throw UsageError("--\(name) \(text.debugDescription) is not a month YYYY-MM") }
            return m
        }
        let from = try month("from")
        if fromRequired && from == nil { throw UsageError("--from YYYY-MM is required") }
        let to = try month("to")
        if let from, let to, to < from { throw UsageError("--to must not be before --from") }
        return (from, to)
    }
}
