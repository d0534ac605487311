import Foundation

/// `ledger archive`: the log's oldest partitions to files, then out of the database.
public enum ArchiveCommand: LedgerCommand {
    public static let name = "archive"
    public static let summary = "Export the log's oldest whole partitions to files carrying their chain segment, record it in the log, and detach them."

    static let actions: [any AdminAction.Type] = [LogArchiveAction.self]

    public static var usage: String {
        """
        usage: ledger archive --before POSITION --dir DIR [--drop] --reason TEXT [--operator NAME] [--json]

        Writes every whole partition of `events` that lies before POSITION (and after the
        last archive) to DIR/events-FIRST-LAST.jsonl, one event per line as `ledger export
        events --format jsonl` writes it, with both hashes: each file is checked on its own
        and against its neighbours by `ledger verify --archive`. Then appends `log.archived`
        (the files, their SHA-256, the hash the live log continues from) and detaches the
        partitions (DETACH PARTITION … CONCURRENTLY: reads and appends go on). The detached
        tables are kept as archived_events_N unless --drop. The live log always keeps its
        last event. A rerun after a crash finishes what the last one started.

        Uses DATABASE_URL to append, and LEDGER_MIGRATION_DATABASE_URL (the schema's owner)
        to read the partitions and detach them. Exit 0 done, 1 refused, 2 usage error.
        """
    }

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        return AdminDispatcher.runAsProcess(program: "ledger archive", actions: actions, arguments: arguments, environment: environment)
    }

    /// Runs `ledger archive ARGUMENTS` in-process.
    public static func execute(_ arguments: [String], environment: [String: String],
                               services: () throws -> AdminServices) -> AdminOutcome {
        AdminDispatcher.execute(program: "ledger archive", actions: actions, arguments: arguments,
                                environment: environment, services: services)
    }
}
