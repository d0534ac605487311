import EventStore
import Foundation
import Postgres
import Projections

/// `ledger replay`: rebuild projections from the log and swap them in.
public enum ReplayCommand: LedgerCommand {
    public static let name = "replay"
    public static let summary = "Rebuild projections from zero into a fresh schema, then swap them in atomically."
    public static let usage = """
        usage: ledger replay [--projection NAME] [--batch N]

        Rebuilds every projection (or only NAME) from position 1 into a new schema while
        the live one keeps serving, catches up to the head, and swaps in one transaction
        (under the lock the projector takes per batch, so no batch is lost or applied
        twice). Prints each table's checksum before and after, so that a rebuild of an
        unchanged projection can be seen to be identical. Shows a progress bar on a
        terminal. Stops without swapping on a poison event.

          --projection NAME   one of: \(AllProjections.all.map(\.name).joined(separator: ", "))
          --batch N           events per transaction (default 1000)
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["projection", "batch"])
        let url = try environment.databaseURL()
        var projections = AllProjections.all
        if let name = args.value("projection") {
            guard let projection = AllProjections.named(name) else {
                throw UsageError("no projection named \(name); known: \(AllProjections.all.map(\.name).joined(separator: ", "))")
            }
            projections = [projection]
        }
        let logger = try environment.logger(component: "replay")
        let connection = try PostgresConnection(conninfo: url)
        let before = try checksums(projections, on: connection)
        let bars = ProgressBarSet()
        let rebuilder = ProjectionRebuilder(conninfo: url, batchSize: try args.int("batch", default: 1_000),
                                            log: logger.projectorLog) { name, position, head in
            bars.update(name: name, position: position, head: head)
        }
        try rebuilder.rebuild(projections)
        bars.finish()
        let after = try checksums(projections, on: connection)
        for (table, checksum) in after.sorted(by: { $0.key < $1.key }) {
            let previous = before[table] ?? "absent"
            print("\(table): \(checksum)\(previous == checksum ? " (unchanged)" : " (was \(previous))")")
        }
        return 0
    }

    static func checksums(_ projections: [any Projection], on connection: PostgresConnection) throws -> [String: String] {
        var out: [String: String] = [:]
        for projection in projections where try ProjectionSchema.exists(projection.schema, on: connection) {
            for table in projection.tables {
                out["\(projection.schema).\(table)"] = try ProjectionSchema.checksum(schema: projection.schema, table: table, on: connection)
            }
        }
        return out
    }
}

/// One progress bar per projection being rebuilt.
final class ProgressBarSet: @unchecked Sendable {
    // Called from the rebuilding thread only.
    private var bars: [String: ProgressBar] = [:]
    private var current: String?

    func update(name: String, position: Int64, head: Int64) {
        if current != name {
            if let current { bars[current]?.finish() }
            current = name
        }
        let bar = bars[name] ?? ProgressBar(label: "replay \(name)")
        bars[name] = bar
        bar.update(done: position, total: head, force: position == head)
    }

    func finish() { if let current { bars[current]?.finish() } }
}
